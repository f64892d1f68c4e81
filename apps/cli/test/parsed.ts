// What a verb parses its command line into, without running it: a program with just the global
// flags and the one verb, whose run only records the options it was given.
import { Command } from "commander";

export async function parsed<T>(
  add: (parent: Command, run: (options: T) => Promise<void>) => void,
  args: readonly string[],
): Promise<T | null> {
  let got: T | null = null;
  const program = new Command("gauntlet").option("--server <url>").option("--json").exitOverride();
  add(program, (options) => {
    got = options;
    return Promise.resolve();
  });
  await program.parseAsync([...args], { from: "user" });
  return got;
}
