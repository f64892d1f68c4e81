// A self-signed TLS certificate for a test's load balancer, made with openssl at test time: valid
// for one IP address, and its own trust anchor (clients are given it as the CA to trust).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TestCertificate {
  /** The certificate alone (PEM): what clients trust. */
  certificateFile: string;
  certificatePem: string;
  /** Certificate then key in one file, as HAProxy's `crt` takes it. */
  bundleFile: string;
}

export function makeTestCertificate(dir: string, ipAddress: string): TestCertificate {
  const certificateFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-days", "1", "-subj", "/CN=gauntlet reference deployment test"],
      ...["-addext", `subjectAltName=IP:${ipAddress}`],
      ...["-keyout", keyFile, "-out", certificateFile],
    ],
    { stdio: "ignore" },
  );
  const certificatePem = readFileSync(certificateFile, "utf8");
  const bundleFile = join(dir, "gauntlet.pem");
  writeFileSync(bundleFile, certificatePem + readFileSync(keyFile, "utf8"), { mode: 0o600 });
  return { certificateFile, certificatePem, bundleFile };
}
