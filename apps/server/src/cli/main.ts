#!/usr/bin/env node
// `gauntlet-server`: start the service and administer its storage.
import type { Coworld } from "@gauntlet/core";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { resolveConfig } from "../config.ts";
import { ServiceError } from "../shared/errors.ts";
import { startServer } from "../server.ts";
import { openStore, type Store } from "../store/database.ts";
import { createApiToken } from "../identity/tokens.ts";
import { createGame } from "../games/games.ts";
import { createUser, findUserByEmail } from "../identity/users.ts";
import { startEmbeddedRunner, embeddedWorkDir, type EmbeddedRunner } from "../embedded/embedded-runner.ts";
import { createDemoLeague, type DemoLeague } from "../embedded/demo.ts";
import { registerExampleCoworld } from "../embedded/example-coworld.ts";
import { embeddedRunnerToken } from "../embedded/runner-token.ts";
import { readSecretFromStdin } from "./read-secret.ts";
import { type StorageFlags, withStorageOptions } from "./storage-options.ts";

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("expected a port number from 0 to 65535");
  return port;
}

async function withStore<T>(flags: StorageFlags, run: (store: Store) => Promise<T>): Promise<T> {
  const config = resolveConfig({ dataDir: flags.dataDir, databaseUrl: flags.databaseUrl });
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, pgSchema: config.databaseSchema });
  try {
    await store.migrate();
    return await run(store);
  } finally {
    await store.close();
  }
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
    .option("--no-demo", "on an empty data directory, do not create the demo league"),
).action(async (flags: StorageFlags & { port?: number; host?: string; runner: boolean; demo: boolean }) => {
  const config = resolveConfig({ port: flags.port, host: flags.host, dataDir: flags.dataDir, databaseUrl: flags.databaseUrl });
  const server = await startServer(config);
  let example: Coworld | null = null;
  if (server.firstAdmin) {
    try {
      example = await registerExampleCoworld(server.store, server.context.blobs);
    } catch (error) {
      process.stderr.write(`the example coworld could not be registered: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  let demo: DemoLeague | null = null;
  if (example && flags.demo) {
    try {
      demo = await createDemoLeague(server.store.db, server.context.blobs, server.context.events.bus, example);
    } catch (error) {
      process.stderr.write(`the demo league could not be created: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  const lines = [
    "",
    "Gauntlet is running.",
    `  API (data host, prefix ${config.apiPrefix}): ${server.dataUrl}`,
    `  API (alt host, at the root):  ${server.url}`,
    `  Reference: ${server.url}/docs   OpenAPI: ${server.url}/openapi.json`,
    `  Storage: ${server.store.engine} (${server.store.location})`,
  ];
  if (server.firstAdmin) {
    lines.push(
      "",
      "First start: an admin account was created.",
      `  email:    ${server.firstAdmin.email}`,
      `  password: ${server.firstAdmin.password}`,
      ...(server.firstAdmin.credentialsFile ? [`  (also saved, readable only by you, in ${server.firstAdmin.credentialsFile})`] : []),
      `  Sign in from a browser at ${server.url}/cli-login?callback=…, or make a token now:`,
      `  pnpm gauntlet-server tokens create --email ${server.firstAdmin.email}`,
    );
  }
  if (example) lines.push("", `Example coworld registered: ${example.name} ${example.version} (${example.id}).`, `  Certify it: POST ${server.url}/v2/coworlds/${example.id}/certify`);
  if (demo) {
    lines.push("", `Demo league: ${demo.league.name} (${demo.league.id}), ${demo.players} baseline players playing by themselves (--no-demo leaves it out).`);
    for (const d of demo.divisions) lines.push(`  ${d.name} standings: ${server.url}/v2/divisions/${d.id}/leaderboard`);
    lines.push(`  Live: ws://${server.url.replace(/^https?:\/\//, "")}/v2/events, topic league:${demo.league.id}`);
  }
  lines.push(
    "",
    flags.runner
      ? "Runner: embedded (a child process of this command; --no-runner leaves it out)."
      : `Runner: none (--no-runner). Start one: pnpm gauntlet-runner --server ${server.url} with GAUNTLET_TOKEN set to a machine token.`,
  );
  let runner: EmbeddedRunner | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: shutting down…\n`);
    // The runner first, while the server can still take its reports.
    (runner?.stop() ?? Promise.resolve())
      .then(() => server.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exit(1);
        },
      );
  };
  // Listening before saying that the server runs: a signal with no listener ends the process at once.
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  process.stdout.write(`${lines.join("\n")}\n\n`);
  // Stopped while the runner starts, the server exits; the runner then sees its IPC channel close and stops too.
  if (flags.runner && !stopping) {
    runner = await startEmbeddedRunner({
      serverUrl: server.url,
      token: () => embeddedRunnerToken(server.store.db, config.dataDir),
      workDir: embeddedWorkDir(config.dataDir),
    });
  }
});

withStorageOptions(program.command("migrate").description("apply the storage migrations and exit")).action(async (flags: StorageFlags) => {
  await withStore(flags, async (store) => {
    process.stdout.write(`migrations applied (${store.engine}: ${store.location})\n`);
  });
});

const users = program.command("users").description("manage accounts");
withStorageOptions(
  users
    .command("add")
    .description("add a user; the password is read from standard input")
    .requiredOption("--email <email>", "the user's email address")
    .option("--admin", "make the user an admin", false),
).action(async (flags: StorageFlags & { email: string; admin: boolean }) => {
  const password = await readSecretFromStdin(`Password for ${flags.email}: `);
  await withStore(flags, async (store) => {
    const user = await createUser(store.db, { email: flags.email, password, isAdmin: flags.admin });
    process.stdout.write(`added ${user.email}${flags.admin ? " (admin)" : ""} as ${user.id}\n`);
  });
});

const tokens = program.command("tokens").description("manage API tokens");
withStorageOptions(
  tokens
    .command("create")
    .description("create a token for a user (or a machine identity it owns) and print it")
    .requiredOption("--email <email>", "the user who owns the token")
    .option("--machine <name>", "a machine token for this machine identity (own budget, service capacities)")
    .option("--name <name>", "a label for the token", "cli")
    .option("--json", "print {\"token\": …}", false),
).action(async (flags: StorageFlags & { email: string; machine?: string; name: string; json: boolean }) => {
  await withStore(flags, async (store) => {
    const user = await findUserByEmail(store.db, flags.email);
    if (!user) throw new Error(`no user with email ${flags.email}`);
    if (flags.machine !== undefined && !/^[a-z0-9][a-z0-9._-]{0,62}$/.test(flags.machine)) throw new Error(`invalid machine name ${flags.machine}: use lowercase letters, digits, . _ -`);
    const created = await createApiToken(store.db, { userId: user.id, name: flags.name, kind: flags.machine ? "machine" : "user", machineName: flags.machine });
    process.stdout.write(flags.json ? `${JSON.stringify({ token: created.token })}\n` : `${created.token}\n`);
  });
});

const games = program.command("games").description("manage games");
withStorageOptions(
  games
    .command("add")
    .description("register a game by hand (uploading a coworld also creates one)")
    .requiredOption("--name <name>", "the game's name")
    .option("--description <text>", "a description")
    .option("--owner-email <email>", "the owning user (default: the first admin)"),
).action(async (flags: StorageFlags & { name: string; description?: string; ownerEmail?: string }) => {
  await withStore(flags, async (store) => {
    const owner = flags.ownerEmail
      ? await findUserByEmail(store.db, flags.ownerEmail)
      : await store.db.selectFrom("users").selectAll().where("is_admin", "=", 1).orderBy("created_at").executeTakeFirst();
    if (!owner) throw new Error(flags.ownerEmail ? `no user with email ${flags.ownerEmail}` : "no admin exists yet: start the server once or add one with `users add --admin`");
    const game = await createGame(store.db, { name: flags.name, ownerUserId: owner.id, description: flags.description });
    process.stdout.write(`${game.id}\n`);
  });
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  const message = error instanceof ServiceError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`gauntlet-server: ${message}\n`);
  process.exit(1);
}
