// A server replica as a process of its own (replica-process.ts starts it), on a store another
// process made: the test can SIGKILL it as an operator's replica would die.
import { resolveConfig } from "../src/config.ts";
import { startServer } from "../src/server.ts";
import { openStore } from "../src/store/database.ts";

const { dataDir, databaseUrl, pgSchema, host, port, env } = JSON.parse(
  process.env.GAUNTLET_REPLICA ?? "{}",
) as {
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
  host?: string;
  port?: number;
  env: Record<string, string>;
};
const config = resolveConfig(
  {
    port: port ?? 0,
    host: host ?? "127.0.0.1",
    dataDir,
    databaseUrl,
    logLevel: "warn",
    validateResponses: true,
  },
  env,
);
const server = await startServer(config, {
  env,
  logger: false,
  store: openStore({ dataDir, databaseUrl, pgSchema }),
});
process.stdout.write(`listening ${server.url}\n`);
