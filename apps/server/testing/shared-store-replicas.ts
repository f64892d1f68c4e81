// Two in-process server replicas sharing one test store, as a multi-replica deployment runs:
// the environment that puts them on one Redis, and their start and close.
import { randomBytes } from "node:crypto";

import { startTestServer, type TestServer } from "./start-server.ts";
import { createTestStore, type TestStore } from "./test-store.ts";

/** Replicas on the Redis at `redisUrl`, on an events channel of their own (other tests share that Redis). */
export function redisReplicaEnv(redisUrl: string): Record<string, string> {
  return {
    GAUNTLET_SCHEDULER: "off",
    REDIS_URL: redisUrl,
    GAUNTLET_EVENTS_CHANNEL: `gauntlet:test:${randomBytes(4).toString("hex")}`,
  };
}

export interface SharedStoreReplicas {
  shared: TestStore;
  a: TestServer;
  b: TestServer;
  /** Closes both replicas, then removes the store. */
  close(): Promise<void>;
}

export async function startSharedStoreReplicas(
  env: Record<string, string>,
): Promise<SharedStoreReplicas> {
  const shared = await createTestStore();
  const a = await startTestServer({ testStore: shared, env });
  let b: TestServer;
  try {
    // The second replica shares the first one's store object; only the first closes it.
    b = await startTestServer({
      testStore: { ...shared, store: { ...shared.store, close: async () => undefined } },
      env,
    });
  } catch (error) {
    await a.close();
    await shared.cleanup();
    throw error;
  }
  return {
    shared,
    a,
    b,
    async close() {
      await b.close();
      await a.close();
      await shared.cleanup();
    },
  };
}
