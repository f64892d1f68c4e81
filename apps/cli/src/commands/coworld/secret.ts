// gauntlet coworld secret put|list|delete: secrets handed to a coworld's episodes.
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote, writeTable } from "../../output.ts";

export interface SecretOptions {
  verb: "put" | "list" | "delete";
  coworldName: string;
  /** The secret's name; "" for list. */
  secretName: string;
  json: boolean;
}

/** The value comes on standard input, so it stays out of shell history and process lists. */
async function readSecretValue(io: Deps["io"]): Promise<Uint8Array> {
  if (io.in.isTTY)
    throw new CliError(
      "the secret's value is read from standard input: gauntlet coworld secret put NAME SECRET < value.txt",
      EXIT.usage,
    );
  return io.in.readBytes();
}

export async function runSecret(options: SecretOptions, { io, client }: Deps): Promise<void> {
  const { coworldName: coworld_name, secretName: secret_name } = options;
  if (options.verb === "list") {
    const list = await client.coworldSecrets.list({ coworld_name });
    if (options.json) return writeJson(io, list);
    return writeTable(
      io,
      ["secret", "bytes"],
      list.map((s) => [s.secret_name, s.size_bytes]),
      "no secrets",
    );
  }
  if (options.verb === "put") {
    const body = await readSecretValue(io);
    const saved = await client.coworldSecrets.put({ coworld_name, secret_name, body });
    if (options.json) return writeJson(io, saved);
    return writeNote(
      io,
      `saved secret ${saved.secret_name} for ${coworld_name} (${saved.size_bytes} bytes)`,
    );
  }
  const deleted = await client.coworldSecrets.delete({ coworld_name, secret_name });
  if (options.json) return writeJson(io, deleted);
  writeNote(io, `deleted secret ${deleted.secret_name} of ${coworld_name}`);
}

export function secretCommands(
  parent: Command,
  factory: Factory,
  run: (options: SecretOptions, deps: Deps) => Promise<void> = runSecret,
): Command {
  const secret = parent.command("secret").description("Secrets handed to a coworld's episodes");
  const act =
    (verb: SecretOptions["verb"]) =>
    async (coworldName: string, secretName: string | undefined, cmd: Command) => {
      const options = { verb, coworldName, secretName: secretName ?? "", json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    };
  secret
    .command("put")
    .description("Set a secret; its value is read from standard input")
    .argument("<coworld-name>", "the coworld's name")
    .argument("<secret>", "the secret's name")
    .action((name: string, secretName: string, _opts: unknown, cmd: Command) =>
      act("put")(name, secretName, cmd),
    );
  secret
    .command("list")
    .description("List a coworld's secrets (names only)")
    .argument("<coworld-name>", "the coworld's name")
    .action((name: string, _opts: unknown, cmd: Command) => act("list")(name, undefined, cmd));
  secret
    .command("delete")
    .description("Delete a secret")
    .argument("<coworld-name>", "the coworld's name")
    .argument("<secret>", "the secret's name")
    .action((name: string, secretName: string, _opts: unknown, cmd: Command) =>
      act("delete")(name, secretName, cmd),
    );
  return secret;
}
