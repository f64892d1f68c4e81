// Anonymous budgets for test servers (startTestServer, replica processes): tests poll anonymous
// reads every 25 ms from 127.0.0.1 (`eventually`), as fast as the flood the defaults are there to
// refuse, so a test server gives an address a machine's allowance unless a test sets
// GAUNTLET_ANONYMOUS_CAPACITIES itself (limiter/anonymous-budgets.http.test.ts uses the defaults).
import { SERVICE_CAPACITIES } from "@gauntlet/core";

export const TEST_ANONYMOUS_CAPACITIES = JSON.stringify(SERVICE_CAPACITIES);

/** Open live-events sockets per address and per user on a test server (every test socket is local). */
export const TEST_SOCKETS_PER_HOLDER = "100000";
