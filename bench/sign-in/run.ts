// Sign-in bursts and the rest of the server (issue 28): the slowest /healthz and blob read
// (a play module file, read from the blob store through libuv's thread pool) while 50 wrong
// sign-ins arrive 8 at a time, beside the same reads with no burst. Two bursts: one account from
// one address (the throttle answers 429 after 5, before hashing), and 50 accounts from 50
// addresses (every one hashes: the bound on concurrent hashing is what keeps reads fast).
//
//   node bench/sign-in/run.ts            (BENCH_ROUNDS=3 to repeat each phase)
//
// Not a test: numbers depend on the machine.
import { randomBytes } from "node:crypto";
import { join } from "node:path";

import {
  createTestLeague,
  GRIDRUSH_DIR,
  packDirectory,
  startTestServer,
} from "@gauntlet/server/testing";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const SIGN_INS = 50;
const STREAMS = 8;

const t = await startTestServer({
  env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_TRUSTED_PROXIES: "127.0.0.1" },
});
try {
  const tl = await createTestLeague(t);
  const upload = await fetch(`${t.url}/v2/coworlds/${tl.coworldId}/play-modules`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${tl.commissioner.token}`,
      "content-type": "application/octet-stream",
    },
    body: new Uint8Array(await packDirectory(join(GRIDRUSH_DIR, "play", "client"))),
  });
  const entry = ((await upload.json()) as { entry_url: string }).entry_url;
  const blob = entry.replace(/index\.html$/, "client.js");

  const timed = async (url: string) => {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    return performance.now() - started;
  };
  const address = () => `10.${[0, 0, 0].map(() => randomBytes(1)[0] ?? 0).join(".")}`;
  const signIn = (email: string, from: string) =>
    fetch(`${t.url}/cli-login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from },
      body: new URLSearchParams({ email, password: "wrong", callback: "http://127.0.0.1:9/cb" }),
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });

  /** Reads /healthz and the blob one after the other until `until` settles (at least 20 each). */
  async function readDuring(until: Promise<unknown>) {
    let done = false as boolean; // set when `until` settles, while the loop awaits
    void until.finally(() => (done = true));
    const health: number[] = [];
    const reads: number[] = [];
    while (!done || health.length < 20) {
      health.push(await timed(`${t.url}/healthz`));
      reads.push(await timed(blob));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { health, reads };
  }

  async function burst(oneAccount: boolean) {
    const user = await t.newUser();
    const from = address();
    const statuses: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: STREAMS }, async () => {
        while (next < SIGN_INS) {
          next += 1;
          statuses.push(
            await signIn(
              oneAccount ? user.email : `b${next}-${address()}@example.test`,
              oneAccount ? from : address(),
            ),
          );
        }
      }),
    );
    return { ms: performance.now() - started, statuses };
  }

  const line = (name: string, samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    return `${name.padEnd(52)} ${String(samples.length).padStart(5)} ${at(0.5).toFixed(1).padStart(8)} ${at(0.95).toFixed(1).padStart(8)} ${(sorted[sorted.length - 1] ?? NaN).toFixed(1).padStart(8)}`;
  };
  console.log(
    `${"".padEnd(52)} ${"n".padStart(5)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)}`,
  );
  for (let round = 0; round < ROUNDS; round += 1) {
    const quiet = await readDuring(new Promise((resolve) => setTimeout(resolve, 1_000)));
    console.log(line("no burst: /healthz", quiet.health));
    console.log(line("no burst: blob read", quiet.reads));
    for (const oneAccount of [true, false]) {
      const running = burst(oneAccount);
      const during = await readDuring(running);
      const { ms, statuses } = await running;
      const count = (s: number) => statuses.filter((x) => x === s).length;
      const label = oneAccount ? "one account, one address" : "50 accounts, 50 addresses";
      console.log(line(`${label}: /healthz`, during.health));
      console.log(line(`${label}: blob read`, during.reads));
      console.log(
        `  ${label}: ${SIGN_INS} wrong sign-ins in ${ms.toFixed(0)} ms (${count(401)} × 401, ${count(429)} × 429, ${count(503)} × 503)`,
      );
    }
  }
} finally {
  await t.close();
}
