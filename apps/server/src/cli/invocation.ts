// How this command was started, so that the commands it prints can be pasted as they are:
// someone who followed the README ran `npx -y pnpm@10 start` and has no `pnpm` on PATH.
import { basename, relative } from "node:path";

export type Env = Record<string, string | undefined>;

export interface Invocation {
  /** The package script's name (`gauntlet-server`, `gauntlet-runner`). */
  script: string;
  /** The file a plain `node` runs for it. */
  main: string;
  /** pnpm's `--silent`: only the command's own output (for `TOKEN=$(…)`). */
  silent?: boolean;
}

/** Quotes a word for a POSIX shell when it needs quoting. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that runs `script` the way this process was run: through pnpm from npx, pnpm,
 * npm, an installed bin, or node and a path.
 */
export function commandFor(
  what: Invocation,
  env: Env = process.env,
  argv1: string = process.argv[1] ?? "",
  cwd: string = process.cwd(),
  execPath: string = process.execPath,
): string {
  const agent = env.npm_config_user_agent ?? "";
  if (env.npm_lifecycle_event !== undefined && agent.startsWith("pnpm/")) {
    const silent = what.silent ? " --silent" : "";
    // pnpm run from npx's cache has no `pnpm` of its own on the user's PATH.
    if (/[\\/]_npx[\\/]/.test(env.npm_execpath ?? ""))
      return `npx -y pnpm@${/^pnpm\/(\d+)/.exec(agent)?.[1] ?? "10"}${silent} ${what.script}`;
    return `pnpm${silent} ${what.script}`;
  }
  if (env.npm_lifecycle_event !== undefined && agent.startsWith("npm/"))
    return `npm run${what.silent ? " --silent" : ""} ${what.script} --`;
  if (basename(argv1) === what.script) return what.script;
  return `${nodeWord(execPath, cwd)} ${shellWord(relative(cwd, what.main) || what.main)}`;
}

/**
 * How to name the Node that runs us: the project's own (node_modules/node, Node 24, which runs
 * TypeScript) by its path, since the `node` on a user's PATH may be an older one that cannot.
 */
function nodeWord(execPath: string, cwd: string): string {
  const own = relative(cwd, execPath);
  return own.startsWith("node_modules/") ? shellWord(own) : "node";
}
