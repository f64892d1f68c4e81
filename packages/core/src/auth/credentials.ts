// Tokens saved by the command-line client's login, one per server, in a JSON file only the
// user can read (mode 0600). Writes go to a temporary file that is renamed over the old one,
// so a reader never sees half a file.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

import { z } from "zod";

import { credentialsPath, type ConfigLocation } from "./config-dir.ts";
import { normalizeServerUrl } from "./server-url.ts";

export const SavedCredential = z
  .looseObject({
    token: z.string().min(1),
    saved_at: z.iso.datetime({ offset: true }),
    subject_type: z.string().optional(),
    user_email: z.string().optional(),
  })
  .meta({ id: "SavedCredential" });

export const CredentialsFile = z
  .looseObject({
    version: z.literal(1),
    /** The server the last login chose; used when no server is given. */
    default_server: z.string().nullable().default(null),
    servers: z.record(z.string(), SavedCredential).default({}),
  })
  .meta({ id: "CredentialsFile" });

export type SavedCredential = z.infer<typeof SavedCredential>;
export type CredentialsFile = z.infer<typeof CredentialsFile>;

export interface CredentialsLocation extends ConfigLocation {
  /** The file itself; defaults to `credentialsPath({env, home})`. */
  path?: string;
}

/** The credentials file exists but cannot be read as one. */
export class CredentialsFileError extends Error {
  override readonly name = "CredentialsFileError";
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`cannot read saved credentials at ${path}: ${reason}`);
    this.path = path;
  }
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function pathOf(location: CredentialsLocation): string {
  return location.path ?? credentialsPath(location);
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

/** The saved credentials; an empty set when the file does not exist. */
export function loadCredentials(location: CredentialsLocation = {}): CredentialsFile {
  const path = pathOf(location);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isMissing(error)) return { version: 1, default_server: null, servers: {} };
    throw new CredentialsFileError(path, error instanceof Error ? error.message : String(error));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CredentialsFileError(path, "not valid JSON");
  }
  const parsed = CredentialsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join(".") : "(root)";
    throw new CredentialsFileError(path, `${where}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** The token saved for `server`, if any. */
export function loadSavedToken(
  server: string,
  location: CredentialsLocation = {},
): SavedCredential | null {
  return loadCredentials(location).servers[normalizeServerUrl(server)] ?? null;
}

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: DIR_MODE });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx", FILE_MODE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    // The umask can only narrow the mode given to open; set it exactly.
    chmodSync(tmp, FILE_MODE);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

function store(file: CredentialsFile, location: CredentialsLocation): void {
  writeAtomically(pathOf(location), `${JSON.stringify(file, null, 2)}\n`);
}

export interface SaveCredentialInput {
  token: string;
  subject_type?: string;
  user_email?: string;
}

export interface SaveOptions extends CredentialsLocation {
  /** Make this the server used when none is given (default true). */
  makeDefault?: boolean;
  /** Clock for `saved_at` (tests). */
  now?: () => Date;
}

/** Saves (or replaces) the token for `server`; returns the normalized server URL it is keyed by. */
export function saveCredential(
  server: string,
  input: SaveCredentialInput,
  options: SaveOptions = {},
): string {
  const key = normalizeServerUrl(server);
  const file = loadCredentials(options);
  const saved: SavedCredential = {
    ...input,
    saved_at: (options.now?.() ?? new Date()).toISOString(),
  };
  SavedCredential.parse(saved);
  const next: CredentialsFile = {
    ...file,
    default_server: options.makeDefault === false ? file.default_server : key,
    servers: { ...file.servers, [key]: saved },
  };
  store(next, options);
  return key;
}

/** Forgets the token for `server`; returns whether one was saved. */
export function removeCredential(server: string, location: CredentialsLocation = {}): boolean {
  const key = normalizeServerUrl(server);
  const file = loadCredentials(location);
  if (!(key in file.servers)) return false;
  const servers = { ...file.servers };
  delete servers[key];
  store(
    { ...file, servers, default_server: file.default_server === key ? null : file.default_server },
    location,
  );
  return true;
}
