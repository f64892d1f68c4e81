// `gauntlet watch`: resolves the server and token the way the SDK does (option, then
// GAUNTLET_SERVER / GAUNTLET_TOKEN, then the saved login), checks for a terminal, and runs the
// UI until the user quits. Resolves with the exit code; never throws for a user's mistake.
import { Notices } from "./data/notices.ts";
import { NO_SERVER_MESSAGE_HINT, type Env } from "./messages.ts";

export interface WatchOptions {
  /** The server's base address; default GAUNTLET_SERVER, then the saved login. */
  server?: string;
  /** Bearer token; null watches anonymously. Default GAUNTLET_TOKEN, then the saved login. */
  token?: string | null;
  /** League id or name: skips the picker. */
  league?: string;
  /** Division id or name: skips the picker. */
  division?: string;
}

/** Where the UI draws and reads keys; the process's own streams by default. */
export interface WatchIO {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WritableStream;
  env?: Env;
}

/** Exit code when the command cannot start (no terminal, no server). */
export const EXIT_USAGE = 2;

export async function runWatch(options: WatchOptions = {}, io: WatchIO = {}): Promise<number> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const fail = (message: string) => {
    stderr.write(`gauntlet watch: ${message}\n`);
    return EXIT_USAGE;
  };
  if (!stdin.isTTY || !stdout.isTTY)
    return fail("needs an interactive terminal (standard input and output must be a TTY)");

  // React picks its build when first loaded: the production one unless told otherwise.
  if (env === process.env) process.env.NODE_ENV ??= "production";
  // The UI (React, Ink, the screens) loads while the client is made and the first screen's
  // one request is in flight: its answer is there, or nearly, when the first frame is drawn.
  const ui = Promise.all([import("./components/theme.ts"), import("./start-watch.ts")]);
  void Promise.allSettled([ui]); // awaited below, where a failure is thrown
  const [{ createClient, isGauntletConfigError }, { connectionNotices }, { visibleFetch }] =
    await Promise.all([
      import("@gauntlet/sdk"),
      import("./data/connection-notices.ts"),
      import("./data/visible-fetch.ts"),
    ]);

  const notices = new Notices();
  let client;
  try {
    client = createClient({
      ...(options.server !== undefined ? { baseUrl: options.server } : {}),
      ...(options.token !== undefined ? { token: options.token } : {}),
      env,
      // Server text reaches the screens with its control characters made visible.
      ...connectionNotices(notices, visibleFetch()),
    });
  } catch (error) {
    if (isGauntletConfigError(error)) return fail(error.message);
    throw error;
  }
  if (client.baseUrl === null) return fail(NO_SERVER_MESSAGE_HINT);

  const named = options.league !== undefined || options.division !== undefined;
  const opening = named
    ? client.divisions.standingsView({
        ...(options.league !== undefined ? { league: options.league } : {}),
        ...(options.division !== undefined ? { division: options.division } : {}),
      })
    : null;
  // The app awaits it and falls back to resolving the names itself when it failed.
  if (opening) void Promise.allSettled([opening]);
  const [{ themeFor }, { mountWatch }] = await ui;
  const { exited } = mountWatch({
    client,
    notices,
    flags: { league: options.league, division: options.division },
    opening,
    theme: themeFor(env),
    stdin,
    stdout,
    stderr,
  });
  return exited;
}
