// The exit codes every command uses (documented in the README and in `gauntlet --help`).
export const EXIT = {
  ok: 0,
  /** The service refused or failed the request, or the network did. */
  failure: 1,
  /** Bad usage: an unknown command or option, a missing or malformed argument. */
  usage: 2,
  /** The thing named does not exist (or is private to someone else). */
  notFound: 3,
  /** Not signed in, the token was refused, or no server is configured. */
  auth: 4,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

/** A failure the CLI explains in one line and ends with an exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.failure) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const HOW_TO_CONFIGURE =
  "sign in with `gauntlet auth login --server URL`, pass --server URL, or set GAUNTLET_SERVER (and GAUNTLET_TOKEN)";
