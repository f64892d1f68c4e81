// Starts the real server on a free port for a test, with its own store (see test-store.ts),
// and hands out tokens for the first admin and for new users.
import { resolveConfig, type Env, type ServerConfig } from "../src/config.ts";
import { FIRST_ADMIN_EMAIL } from "../src/identity/first-admin.ts";
import { createApiToken } from "../src/identity/tokens.ts";
import { createUser } from "../src/identity/users.ts";
import { startServer, type RunningServer, type StartOptions } from "../src/server.ts";
import { registerAdminToken } from "./http.ts";
import { TEST_ANONYMOUS_CAPACITIES, TEST_SOCKETS_PER_HOLDER } from "./test-capacities.ts";
import { createTestStore, type TestStore } from "./test-store.ts";

export interface TestServer {
  /** The API at the alt host's root: http://127.0.0.1:PORT */
  url: string;
  /** The API on the data host under the prefix: http://localhost:PORT/observatory */
  dataUrl: string;
  adminToken: string;
  server: RunningServer;
  testStore: TestStore;
  /** A new (non-admin unless asked) user and a token of theirs. */
  newUser(options?: {
    admin?: boolean;
    email?: string;
  }): Promise<{ id: string; email: string; token: string }>;
  /** A machine token owned by the first admin, or by the user whose id is given. */
  machineToken(name: string, ownerUserId?: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment for the limiter and the rest (the process environment is not read). */
  env?: Env;
  config?: Partial<ServerConfig>;
  /** Share one store between servers (replica tests). */
  testStore?: TestStore;
  /** Routes outside the contract (benchmarks' bare baseline route). */
  extraRoutes?: StartOptions["extraRoutes"];
  /** Starts leagues' coworld commissioners (tests give a scripted one). */
  commissionerLauncher?: StartOptions["commissionerLauncher"];
}

let userCounter = 0;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const testStore = options.testStore ?? (await createTestStore());
  const env: Env = {
    GAUNTLET_RATE_LIMIT_MODE: "enforced",
    GAUNTLET_ANONYMOUS_CAPACITIES: TEST_ANONYMOUS_CAPACITIES,
    // Every test socket comes from 127.0.0.1: the caps on open live-events sockets are a machine's
    // (a test of the caps sets its own).
    GAUNTLET_EVENTS_MAX_SOCKETS_PER_ADDRESS: TEST_SOCKETS_PER_HOLDER,
    GAUNTLET_EVENTS_MAX_SOCKETS_PER_USER: TEST_SOCKETS_PER_HOLDER,
    ...options.env,
  };
  const config = resolveConfig(
    {
      port: 0,
      host: "127.0.0.1",
      dataDir: testStore.dataDir,
      databaseUrl: testStore.databaseUrl,
      logLevel: "warn",
      validateResponses: true,
      ...options.config,
    },
    env,
  );
  const server = await startServer(config, {
    env,
    logger: false,
    store: testStore.store,
    ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}),
    ...(options.commissionerLauncher ? { commissionerLauncher: options.commissionerLauncher } : {}),
  });
  const db = server.store.db;
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", FIRST_ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  const adminToken = (
    await createApiToken(db, { userId: admin.id, name: "test admin", kind: "user" })
  ).token;
  registerAdminToken(adminToken);
  const port = new URL(server.url).port;
  return {
    url: server.url,
    dataUrl: `http://localhost:${port}${config.apiPrefix}`,
    adminToken,
    server,
    testStore,
    async newUser(opts = {}) {
      userCounter += 1;
      const email = opts.email ?? `user${userCounter}-${Date.now()}@example.test`;
      const user = await createUser(db, {
        email,
        password: "correct horse battery",
        isAdmin: opts.admin ?? false,
      });
      const token = (await createApiToken(db, { userId: user.id, name: "test", kind: "user" }))
        .token;
      if (opts.admin) registerAdminToken(token);
      return { id: user.id, email, token };
    },
    async machineToken(name: string, ownerUserId?: string) {
      return (
        await createApiToken(db, {
          userId: ownerUserId ?? admin.id,
          name,
          kind: "machine",
          machineName: name,
        })
      ).token;
    },
    async close() {
      await server.close();
      if (!options.testStore) await testStore.cleanup();
    },
  };
}
