// Which command groups a command line needs, so that `gauntlet --help` and `gauntlet league list`
// import only what they use. The command a line names is its first word that is not an option
// (nor the value of a root option such as --server); `help X` names X. A line that names none
// of them (the root help, --version, a mistyped command) gets stand-ins that carry the root
// help's rows and the names commander suggests from, and no group at all.
import { Help, type Command } from "commander";

import { commandEntries, type CommandEntry } from "./index.ts";

/** Root flags that answer before any command runs: commander prints the root help or version. */
const ANSWERED_AT_ROOT = new Set(["-h", "--help", "-V", "--version"]);

/** The command a line names, or null when the root answers it. */
function namedCommand(argv: readonly string[], root: Command): string | null {
  const takesValue = new Set(
    root.options
      .filter((o) => o.required || o.optional)
      .flatMap((o) => [o.long, o.short].filter((f) => f !== undefined)),
  );
  let afterHelp = false;
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] ?? "";
    if (word === "--") return null;
    if (ANSWERED_AT_ROOT.has(word)) return null;
    if (word.startsWith("-")) {
      if (takesValue.has(word)) i += 1;
      continue;
    }
    if (word === "help" && !afterHelp) {
      afterHelp = true;
      continue;
    }
    return word;
  }
  return null;
}

/**
 * The entries whose groups this command line loads: the named command's group; every group
 * for `completion` (it completes the whole tree); none when no known command is named.
 */
export function entriesFor(argv: readonly string[], root: Command): readonly CommandEntry[] {
  const name = namedCommand(argv, root);
  const entry = commandEntries.find((e) => e.name === name);
  if (!entry) return [];
  return entry.name === "completion" ? commandEntries : [entry];
}

/** Registers each group behind `entries` once (a group may add several commands). */
export async function loadGroups(entries: readonly CommandEntry[]) {
  const loaders = [...new Set(entries.map((e) => e.load))];
  return Promise.all(loaders.map((load) => load()));
}

/**
 * Stand-ins for every command, for a line that runs none of them: the root help lists their
 * rows as the real commands would, and a mistyped name still gets its suggestion.
 */
export function addStandIns(program: Command): void {
  const terms = new Map(commandEntries.map((e) => [e.name, e.term]));
  const plain = new Help();
  for (const entry of commandEntries) program.command(entry.name).description(entry.description);
  program.configureHelp({
    ...program.configureHelp(),
    subcommandTerm: (cmd: Command) => terms.get(cmd.name()) ?? plain.subcommandTerm(cmd),
  });
}
