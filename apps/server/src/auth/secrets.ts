// Passwords (scrypt) and tokens (random, stored only as a SHA-256 hash).
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";

import { ServiceError } from "../shared/errors.ts";
import { Semaphore, SemaphoreFull } from "../shared/semaphore.ts";

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 } as const;

/**
 * scrypt runs on libuv's thread pool (4 threads by default), which file reads, DNS and zlib share:
 * unbounded, a burst of sign-ins fills it and every blob read waits behind ~50 ms hashes. One hash
 * per two cores leaves the rest of the pool, and CPU time for the event loop; a burst beyond the
 * queue is refused at once (503).
 */
const HASHING = new Semaphore(Math.max(1, Math.floor(availableParallelism() / 2)), 128);

async function scryptAsync(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  keylen: number,
): Promise<Buffer> {
  try {
    return await HASHING.run(() => scryptNow(password, salt, N, r, p, keylen));
  } catch (error) {
    if (error instanceof SemaphoreFull)
      throw new ServiceError(
        503,
        "service_busy",
        "Too many passwords are being checked right now; retry in a second.",
      );
    throw error;
  }
}

function scryptNow(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  keylen: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, { N, r, p, maxmem: 128 * N * r * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keylen);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scryptAsync(
    password,
    Buffer.from(salt, "base64url"),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Token prefixes tell the subject: user, machine, player (`ply_`), sign-in code, reporter key. */
export const tokenPrefixes = {
  user: "gnt_",
  machine: "gntm_",
  player: "ply_",
  code: "gcode_",
  reporter: "rptk_",
} as const;

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A readable random password for the first admin. */
export function newPassword(): string {
  return randomBytes(18).toString("base64url");
}
