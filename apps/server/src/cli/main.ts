#!/usr/bin/env node
// `gauntlet-server`: start the service and administer its storage. Each command loads only
// what it needs: the administration commands never load the HTTP server (see admin.ts).
import { Command, CommanderError, InvalidArgumentError } from "commander";

import type { StartFlags } from "./start.ts";
import { withStorageOptions, type StorageFlags } from "./storage-options.ts";

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError("expected a port number from 0 to 65535");
  return port;
}

function parseCapacity(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 64)
    throw new InvalidArgumentError("expected a whole number from 1 to 64");
  return n;
}

const program = new Command("gauntlet-server")
  .description("The Gauntlet tournament service")
  .showHelpAfterError()
  .exitOverride();

withStorageOptions(
  program
    .command("start")
    .description("start the service (embedded SQLite unless a database URL is given)")
    .option("--port <port>", "port to listen on (env PORT; default 8787)", parsePort)
    .option("--host <host>", "address to bind (env HOST; default 127.0.0.1)")
    .option("--no-runner", "do not start the embedded runner (run gauntlet-runner elsewhere)")
    .option(
      "--runner-capacity <n>",
      "episodes the embedded runner plays at once besides live games (env GAUNTLET_RUNNER_CAPACITY; default one per core, 2 to 8)",
      parseCapacity,
    )
    .option("--no-demo", "on an empty data directory, do not create the demo league")
    .option(
      "--verbose",
      "log more: the server at info, a line per episode from the runner (env GAUNTLET_LOG_LEVEL or LOG_LEVEL sets a level)",
      false,
    ),
).action(async (flags: StartFlags) => {
  const { start } = await import("./start.ts");
  await start(flags);
});

withStorageOptions(
  program.command("migrate").description("apply the storage migrations and exit"),
).action(async (flags: StorageFlags) => {
  await (await import("./admin.ts")).migrate(flags);
});

const users = program.command("users").description("manage accounts");
withStorageOptions(
  users
    .command("add")
    .description("add a user; the password is read from standard input")
    .requiredOption("--email <email>", "the user's email address")
    .option("--admin", "make the user an admin", false),
).action(async (flags: StorageFlags & { email: string; admin: boolean }) => {
  await (await import("./admin.ts")).addUser(flags);
});

const tokens = program.command("tokens").description("manage API tokens");
withStorageOptions(
  tokens
    .command("create")
    .description("create a token for a user (or a machine identity it owns) and print it")
    .requiredOption("--email <email>", "the user who owns the token")
    .option(
      "--machine <name>",
      "a machine token for this machine identity (own budget, service capacities)",
    )
    .option("--name <name>", "a label for the token", "cli")
    .option("--json", 'print {"token": …}', false),
).action(
  async (
    flags: StorageFlags & { email: string; machine?: string; name: string; json: boolean },
  ) => {
    await (await import("./admin.ts")).createToken(flags);
  },
);

const games = program.command("games").description("manage games");
withStorageOptions(
  games
    .command("add")
    .description("register a game by hand (uploading a coworld also creates one)")
    .requiredOption("--name <name>", "the game's name")
    .option("--description <text>", "a description")
    .option("--owner-email <email>", "the owning user (default: the first admin)"),
).action(
  async (flags: StorageFlags & { name: string; description?: string; ownerEmail?: string }) => {
    await (await import("./admin.ts")).addGame(flags);
  },
);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  process.stderr.write(
    `gauntlet-server: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
