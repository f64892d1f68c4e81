// A test run's own home: HOME and the four XDG base directories point into a fresh temporary
// directory, so no test reads or writes the developer's files (`gauntlet league use` saves a
// current league in ~/.config/gauntlet; a test that read it passed or failed by what its
// developer last did). npm's cache and user config stay the developer's: `npx -y pnpm@10` and
// `npm install` in the end-to-end tests would otherwise download everything again.
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join, relative } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

/** The variable that names the run's home; the others point into it. */
export const TEST_HOME = "GAUNTLET_TEST_HOME";

/** Where each variable points, inside the run's home. */
const LAYOUT = {
  HOME: ".",
  XDG_CONFIG_HOME: ".config",
  XDG_CACHE_HOME: ".cache",
  XDG_DATA_HOME: ".local/share",
  XDG_STATE_HOME: ".local/state",
} as const;

export const HOME_VARIABLES = Object.keys(LAYOUT) as (keyof typeof LAYOUT)[];

/**
 * Makes a fresh home and answers the environment a run's workers get (vitest's `env`). `real`
 * is the developer's environment, read for npm's cache and user config.
 */
export function hermeticEnv(real: Env = process.env): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "gauntlet-test-home-"));
  const env: Record<string, string> = { [TEST_HOME]: home };
  for (const name of HOME_VARIABLES) {
    const dir = join(home, LAYOUT[name]);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    env[name] = dir;
  }
  const realHome = real.HOME ?? homedir();
  env.npm_config_cache = real.npm_config_cache ?? join(realHome, ".npm");
  const userConfig = real.npm_config_userconfig ?? join(realHome, ".npmrc");
  if (existsSync(userConfig)) env.npm_config_userconfig = userConfig;
  return env;
}

function inside(dir: string, path: string | undefined): boolean {
  if (path === undefined || !isAbsolute(path)) return false;
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The variables of `env` that do not point into the run's home (all of them when no home is
 * set): what a test would read of the developer's files.
 */
export function outsideTestHome(env: Env): string[] {
  const home = env[TEST_HOME];
  if (home === undefined || !isAbsolute(home)) return [TEST_HOME, ...HOME_VARIABLES];
  return HOME_VARIABLES.filter((name) => !inside(home, env[name]));
}
