// A server replica as a child process of a test, sharing a test store with the test's own
// server: fault tests SIGKILL it. It is ready once it prints its address.
import { spawn } from "node:child_process";
import { join } from "node:path";

import { PATIENCE_MS } from "./patience.ts";
import { TEST_ANONYMOUS_CAPACITIES, TEST_SOCKETS_PER_HOLDER } from "./test-capacities.ts";
import type { TestStore } from "./test-store.ts";

const REPLICA_MAIN = join(import.meta.dirname, "replica-main.ts");

export interface ReplicaProcess {
  url: string;
  /** Its process id (benchmarks read its memory and CPU time from /proc). */
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL: the replica dies at once, mid-request. */
  kill(): Promise<void>;
}

export interface ReplicaPlacement {
  /** A network namespace to run in (nsenter --net): the replica's own host. */
  netns?: string;
  /** Where it listens (127.0.0.1 and a free port unless given). */
  host?: string;
  port?: number;
  /** Its own data directory (the store's unless given) and the address of its database. */
  dataDir?: string;
  databaseUrl?: string;
  /** The replica's entry point when not this checkout's (a benchmark's baseline: another
   * checkout's `apps/server/testing/replica-main.ts`, on the same store). */
  main?: string;
}

export async function startReplicaProcess(
  testStore: TestStore,
  given: Record<string, string> = {},
  placement: ReplicaPlacement = {},
): Promise<ReplicaProcess> {
  const env = {
    GAUNTLET_ANONYMOUS_CAPACITIES: TEST_ANONYMOUS_CAPACITIES,
    GAUNTLET_EVENTS_MAX_SOCKETS_PER_ADDRESS: TEST_SOCKETS_PER_HOLDER,
    GAUNTLET_EVENTS_MAX_SOCKETS_PER_USER: TEST_SOCKETS_PER_HOLDER,
    ...given,
  };
  const node = [process.execPath, placement.main ?? REPLICA_MAIN];
  const [command = "", ...args] = placement.netns
    ? ["nsenter", `--net=/run/netns/${placement.netns}`, "--", ...node]
    : node;
  const child = spawn(command, args, {
    env: {
      PATH: process.env.PATH ?? "",
      // Settings read from the process environment (the lease length) see the same values.
      ...env,
      GAUNTLET_REPLICA: JSON.stringify({
        dataDir: placement.dataDir ?? testStore.dataDir,
        databaseUrl: placement.databaseUrl ?? testStore.databaseUrl,
        pgSchema: testStore.pgSchema,
        host: placement.host,
        port: placement.port,
        env,
      }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the replica did not start: ${output}`)),
      PATIENCE_MS,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening (\S+)/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the replica exited (${code}): ${output}`));
    });
  });
  return {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
