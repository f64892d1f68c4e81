// `pnpm install-cli`: puts a `gauntlet` command on the PATH that runs this clone's CLI with its
// pinned Node, from any directory, until the packages are published. The command is a
// two-line shell script (no copy of the code), so a `git pull` is picked up at once.
//
//   node apps/cli/scripts/install-cli.ts [--bin-dir DIR] [--remove]
//
// The directory is --bin-dir, else GAUNTLET_BIN_DIR, else the first of ~/.local/bin and
// /usr/local/bin that is on the PATH and writable (else ~/.local/bin, with a hint).
import { execFileSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { parseArgs } from "node:util";

const MARK = "# gauntlet: installed by `pnpm install-cli`";
const repo = resolve(import.meta.dirname, "../../..");
const node = join(repo, "node_modules/node/bin/node");
const main = join(repo, "apps/cli/src/main.ts");

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The command itself. The compile cache is set before Node starts, so even the entry file's
 * type stripping is skipped on a warm start (about half of `gauntlet --help`).
 */
export function shim(): string {
  return `#!/bin/sh
${MARK} from ${repo}
NODE_COMPILE_CACHE="\${NODE_COMPILE_CACHE:-\${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet/node-compile-cache}" exec ${quote(node)} ${quote(main)} "$@"
`;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function chooseDir(given: string | undefined): { dir: string; onPath: boolean } {
  const path = (process.env.PATH ?? "").split(delimiter).map((p) => resolve(p));
  if (given) return { dir: resolve(given), onPath: path.includes(resolve(given)) };
  const candidates = [join(homedir(), ".local/bin"), "/usr/local/bin"];
  for (const dir of candidates)
    if (path.includes(dir) && writable(dir)) return { dir, onPath: true };
  const home = candidates[0] ?? join(homedir(), ".local/bin");
  return { dir: home, onPath: path.includes(home) };
}

const { values } = parseArgs({
  options: { "bin-dir": { type: "string" }, remove: { type: "boolean" } },
});
const { dir, onPath } = chooseDir(values["bin-dir"] ?? process.env.GAUNTLET_BIN_DIR);
const target = join(dir, "gauntlet");
const ours = existsSync(target) && readFileSync(target, "utf8").includes(MARK);

if (values.remove) {
  if (!ours) {
    console.error(`install-cli: ${target} is not a gauntlet this script installed; left alone`);
    process.exit(existsSync(target) ? 1 : 0);
  }
  rmSync(target);
  console.log(`removed ${target}`);
  process.exit(0);
}
if (existsSync(target) && !ours) {
  console.error(`install-cli: ${target} exists and is not ours; remove it or give --bin-dir DIR`);
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
writeFileSync(target, shim(), { mode: 0o755 });
// One start fills the compile cache, so the user's first `gauntlet` is as quick as the rest.
execFileSync(target, ["--help"], { stdio: "ignore" });
console.log(`installed ${target} (runs ${main})`);
if (!onPath)
  console.log(
    `${dir} is not on your PATH: add  export PATH="${dir}:$PATH"  to your shell's profile`,
  );
console.log(
  `completion: echo 'eval "$(gauntlet completion bash)"' >> ~/.bashrc   (zsh, fish: gauntlet completion --help)`,
);
