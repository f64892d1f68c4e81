// A server replica as a process of its own (replica-process.ts starts it), on a store another
// process made: the test can SIGKILL it as an operator's replica would die.
import { resolveConfig } from "../src/config.ts";
import { writtenChannel } from "../src/events/fan-out.ts";
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
  // Tests that read what the replica logs (warnings and errors, on stdout) ask for it.
  logger: env.GAUNTLET_TEST_LOGS === "1",
  store: openStore({ dataDir, databaseUrl, pgSchema }),
});
process.stdout.write(`listening ${server.url}\n`);

// Benchmarks (bench watchers): when each batch of events was published (committed), taken by the
// hub (after its linger and any delivery before it) and handed to every subscriber (the last
// socket write of the fan-out done), one line each, on the clock the bench's clients use.
if (env.GAUNTLET_BENCH_TRACE_EVENTS === "1") {
  const trace = (stage: string, seqs: number[], writes?: number) =>
    process.stdout.write(
      `trace ${JSON.stringify({ stage, seqs, writes, at: performance.timeOrigin + performance.now() })}\n`,
    );
  const { bus, hub } = server.leaguePlay;
  bus.subscribe((rows) =>
    trace(
      "published",
      rows.map((r) => r.seq),
    ),
  );
  hub.onRows((rows) =>
    trace(
      "taken",
      rows.map((r) => r.seq),
    ),
  );
  writtenChannel.subscribe((message) => {
    const { seqs, writes } = message as { seqs: number[]; writes: number };
    trace("written", seqs, writes);
  });
}
