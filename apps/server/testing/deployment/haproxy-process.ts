// HAProxy with the reference configuration (haproxy-config.ts), in the foreground as a child of
// the test, installed from Debian by the project's script when missing.
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { PATIENCE_MS } from "../patience.ts";
import { accepts } from "../tcp-accepts.ts";
import { haproxyConfig, type HaproxySettings } from "./haproxy-config.ts";

const ENSURE_PACKAGES = join(
  import.meta.dirname,
  "../../../../tooling/scripts/ensure-system-packages.sh",
);

export interface HaproxyProcess {
  configFile: string;
  output(): string;
  stop(): Promise<void>;
}

/** Installs haproxy when missing (as root on Debian); says why not, or null. */
export function haproxyUnavailable(): string | null {
  try {
    execFileSync(ENSURE_PACKAGES, ["haproxy"], { stdio: ["ignore", "ignore", "pipe"] });
    return null;
  } catch (error) {
    return `haproxy is missing and could not be installed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
}

export async function startHaproxy(
  dir: string,
  settings: HaproxySettings,
): Promise<HaproxyProcess> {
  const configFile = join(dir, "haproxy.cfg");
  writeFileSync(configFile, haproxyConfig(settings));
  execFileSync("haproxy", ["-c", "-q", "-f", configFile]);
  const child = spawn("haproxy", ["-db", "-f", configFile], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const [host = "", port = ""] = settings.listen.split(":");
  const deadline = Date.now() + PATIENCE_MS;
  while (!(await accepts(host, Number(port)))) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${output}`);
    if (Date.now() > deadline) throw new Error(`haproxy never listened on ${settings.listen}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    configFile,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
