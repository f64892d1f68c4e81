// Builds the program and runs one command line, turning every failure into one line on
// standard error and an exit code.
import { Command, CommanderError } from "commander";

import { commandEntries } from "./commands/index.ts";
import { addStandIns, entriesFor, loadGroups } from "./commands/select.ts";
import { globals } from "./context.ts";
import { explain } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";
import { systemFactory, type Factory } from "./factory.ts";
import { red } from "./terminal.ts";
import { version } from "./version.ts";

const ROOT_HELP = `
Examples:
  $ gauntlet auth login --server https://gauntlet.example.com
  $ gauntlet league list
  $ gauntlet league use "Spring League"      # then commands default to it
  $ gauntlet division list
  $ gauntlet leaderboard Premier
  $ gauntlet policy upload ./my-bot --name my-bot --run "node bot.ts"
  $ gauntlet submit my-bot --league "Spring League"
  $ gauntlet leaderboard --json | jq '.[0]'

Server and token:
  --server URL, else GAUNTLET_SERVER, else the server of the last
  \`gauntlet auth login\`; GAUNTLET_TOKEN, else the token saved for that server.

Admins:
  An admin's powers apply only to a command line with --elevated; each
  elevated change is kept in the audit trail
  (\`gauntlet --elevated admin audit\`).

Output:
  Tables for people; --json prints the API's response exactly. Colour only on a
  terminal, never with NO_COLOR.

Exit codes:
  0 ok · 1 the service or network failed · 2 bad usage or input · 3 not found ·
  4 not signed in or no server configured · 130 interrupted

Learn more about a command: gauntlet <command> --help`;

/** commander's messages ("error: unknown command 'x'\n(Did you mean y?)") as one line. */
function oneLine(message: string): string {
  return message
    .replace(/^error:\s*/i, "")
    .replace(/\n\(Did you mean (.*)\?\)/, " (did you mean $1?)")
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean)
    .join(" ");
}

/**
 * The program for one command line: the root, and the command groups `argv` needs
 * (commands/select.ts); every group when `argv` is not given (tests walking the whole tree).
 */
export async function buildProgram(
  state: { exitCode: number },
  factory: Factory = systemFactory(),
  argv?: readonly string[],
): Promise<Command> {
  const { io } = factory;
  const program = new Command("gauntlet")
    .description("The command line for Gauntlet, the tournament service for AI policies.")
    .version(version, "-V, --version")
    .option(
      "--server <url>",
      "the Gauntlet server (default: GAUNTLET_SERVER, else the last sign-in)",
    )
    .option("--json", "print the API's response as JSON instead of a table")
    .option(
      "--elevated",
      "act with your admin powers (X-Use-Elevated-Privileges); without it an admin is an ordinary user",
    )
    .showSuggestionAfterError(true)
    // Wrap descriptions beside a wide column too (`hosted`), so help stays within 80 columns.
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false, minWidthToWrap: 24 })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out.write(text),
      writeErr: (text) => io.err.write(text),
      outputError: (message, write) => write(`gauntlet: ${red(oneLine(message), io.err)}\n`),
    })
    .addHelpText("after", ROOT_HELP);
  const entries = argv === undefined ? commandEntries : entriesFor(argv, program);
  if (entries.length === 0) addStandIns(program);
  for (const group of await loadGroups(entries)) group.register(program, state, factory);
  return program;
}

/** Runs one command line; tests pass a factory with memory streams and a test server's client. */
export async function run(
  argv: readonly string[],
  factory: Factory = systemFactory(),
): Promise<number> {
  const state = { exitCode: EXIT.ok as number, command: null as Command | null };
  const program = await buildProgram(state, factory, argv);
  // Any action reports its command here, so errors know which --server it used.
  program.hook("preAction", (_root, action) => {
    state.command = action;
  });
  const interrupt = () => process.exit(EXIT.interrupted);
  process.once("SIGINT", interrupt);
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end with code 0; commander has already printed any message.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const server = state.command
      ? (globals(state.command).server ?? process.env.GAUNTLET_SERVER ?? null)
      : null;
    const { message, exitCode } = await explain(error, server);
    factory.io.err.write(`gauntlet: ${red(message, factory.io.err)}\n`);
    return exitCode;
  } finally {
    process.off("SIGINT", interrupt);
  }
}
