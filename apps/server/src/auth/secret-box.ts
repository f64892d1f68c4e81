// Encryption at rest for secret values (coworld secrets, policy secret environments):
// AES-256-GCM with a server key. The key comes from GAUNTLET_SECRET_KEY (base64, 32 bytes;
// replicas must share it) or, for a single server, a key file made in the data directory.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const KEY_BYTES = 32;

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES)
      throw new Error(`the secret key must be ${KEY_BYTES} bytes, not ${key.length}`);
    this.#key = key;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [
      "v1",
      iv.toString("base64"),
      cipher.getAuthTag().toString("base64"),
      body.toString("base64"),
    ].join(".");
  }

  /**
   * A short MAC (128 bits, base64url) of `text` for one purpose, under a key derived from the
   * server key: capabilities in addresses, which must be short and need no secrecy.
   */
  sign(purpose: string, text: string): string {
    const key = createHmac("sha256", this.#key).update(`gauntlet:${purpose}`).digest();
    return createHmac("sha256", key).update(text).digest().subarray(0, 16).toString("base64url");
  }

  /** True when `mac` is `sign(purpose, text)`, compared in constant time. */
  verify(purpose: string, text: string, mac: string): boolean {
    const expected = Buffer.from(this.sign(purpose, text));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined)
      throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString(
      "utf8",
    );
  }
}

export function loadSecretBox(dataDir: string, envKey: string | undefined): SecretBox {
  if (envKey) return new SecretBox(Buffer.from(envKey, "base64"));
  const file = join(dataDir, "secret.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(KEY_BYTES).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  return new SecretBox(Buffer.from(readFileSync(file, "utf8").trim(), "base64"));
}
