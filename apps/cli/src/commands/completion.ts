// gauntlet completion bash|zsh|fish: a completion script built from the command tree itself,
// so a new command group completes without touching this file.
import type { Command } from "commander";

import { CliError, EXIT } from "../exit-codes.ts";
import type { Deps, Factory } from "../factory.ts";
import type { CommandGroup } from "./group.ts";

interface Tree {
  /** "" for the top level, else "league", "auth player", … */
  path: string;
  words: string[];
}

function walk(command: Command, path: string[], out: Tree[]): void {
  const words = [
    ...command.commands.map((c) => c.name()),
    ...command.options.map((o) => o.long ?? "").filter(Boolean),
  ];
  out.push({ path: path.join(" "), words });
  for (const sub of command.commands) walk(sub, [...path, sub.name()], out);
}

function bash(trees: Tree[]): string {
  const cases = trees.map((t) => `    "${t.path}") words="${t.words.join(" ")}" ;;`).join("\n");
  return `# gauntlet completion for bash: eval "$(gauntlet completion bash)"
_gauntlet() {
  local cur path="" i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    case "$path\${path:+ }$w" in
${trees
  .map((t) => `      "${t.path}") ;;`)
  .filter((l) => !l.includes('"")'))
  .join("\n")}
      *) continue ;;
    esac
    path="$path\${path:+ }$w"
  done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o bashdefault -o default -F _gauntlet gauntlet
`;
}

function zsh(trees: Tree[]): string {
  return `#compdef gauntlet
# gauntlet completion for zsh: eval "$(gauntlet completion zsh)"
autoload -U bashcompinit && bashcompinit
${bash(trees)}`;
}

function fish(trees: Tree[]): string {
  const lines = [
    "# gauntlet completion for fish: gauntlet completion fish | source",
    "complete -c gauntlet -f",
  ];
  for (const t of trees) {
    const parts = t.path ? t.path.split(" ") : [];
    const condition =
      parts.length === 0
        ? "__fish_use_subcommand"
        : `__fish_seen_subcommand_from ${parts[parts.length - 1] ?? ""}`;
    for (const w of t.words.filter((x) => !x.startsWith("-")))
      lines.push(`complete -c gauntlet -n '${condition}' -a '${w}'`);
    for (const w of t.words.filter((x) => x.startsWith("--")))
      lines.push(`complete -c gauntlet -n '${condition}' -l '${w.slice(2)}'`);
  }
  return `${lines.join("\n")}\n`;
}

const SHELLS = { bash, zsh, fish } as const;
export type Shell = keyof typeof SHELLS;

export interface CompletionOptions {
  shell: Shell;
  /** The program whose commands and options are completed. */
  program: Command;
}

export function runCompletion(options: CompletionOptions, { io }: Pick<Deps, "io">): void {
  const trees: Tree[] = [];
  walk(options.program, [], trees);
  io.out.write(SHELLS[options.shell](trees));
}

function checkShell(shell: string): Shell {
  if (shell === "bash" || shell === "zsh" || shell === "fish") return shell;
  throw new CliError(`SHELL: '${shell}' is not supported (expected bash, zsh or fish)`, EXIT.usage);
}

export function completionCommand(
  program: Command,
  factory: Pick<Factory, "io">,
  run: (options: CompletionOptions, deps: Pick<Deps, "io">) => void = runCompletion,
): Command {
  return program
    .command("completion")
    .description("Print a shell completion script (bash, zsh or fish)")
    .argument("<shell>", "bash, zsh or fish")
    .addHelpText(
      "after",
      "\nExamples:\n  $ echo 'eval \"$(gauntlet completion bash)\"' >> ~/.bashrc\n  $ gauntlet completion fish > ~/.config/fish/completions/gauntlet.fish",
    )
    .action((shell: string) => {
      run({ shell: checkShell(shell), program }, { io: factory.io });
    });
}

export const completion: CommandGroup = {
  register(program, _state, factory) {
    completionCommand(program, factory);
  },
};
