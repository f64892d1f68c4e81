// Archive bombs beside the server's event loop (issue 28): the slowest /healthz while a 10 MiB
// tar.gz of ~10 GiB of zeros is uploaded as a policy bundle, beside the same reads with no
// upload. Inspection runs in a worker thread with byte, entry, ratio and time budgets, so the
// reads should stay where they are. Target: the slowest read during the bomb under 100 ms.
// Then the cogames zips: a bomb whose central directory declares its true sizes, and one that
// lies (each entry declares 1 KiB and inflates to 512 MiB), with how long fflate's unzipSync
// (how zips were unpacked before the bounded inflate) takes on the lying one.
//
//   node bench/archives/run.ts              (BENCH_UPLOADS=3 by default)
//
// Not a test: numbers depend on the machine.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import { unzipSync } from "fflate";
import * as tar from "tar";

import { bestEffort } from "@gauntlet/core";
import { gzipBomb, startTestServer, zipBomb } from "@gauntlet/server/testing";

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 3);
const CHUNK = 256 << 20;
// Just under the server's 10 MiB body limit.
const MEMBERS = 38;

const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
const user = await t.newUser();

/** Reads /healthz back to back until `until` settles; returns each read's milliseconds. */
async function readsDuring(until: Promise<unknown>): Promise<number[]> {
  let done = false as boolean; // set when `until` settles, while the loop awaits
  void until.finally(() => (done = true));
  const samples: number[] = [];
  while (!done) {
    const started = performance.now();
    // A read the blocked server drops still took this long.
    await fetch(`${t.url}/healthz`)
      .then((res) => res.arrayBuffer())
      .catch((error: unknown) => {
        // fetch fails with a TypeError when the connection drops; anything else is a bug here.
        if (!(error instanceof TypeError)) throw error;
      });
    samples.push(performance.now() - started);
  }
  return samples;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function line(name: string, samples: number[], extra = ""): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const worst = sorted[sorted.length - 1] ?? NaN;
  return `${name.padEnd(44)} ${String(samples.length).padStart(6)} ${at(0.5).toFixed(1).padStart(8)} ${at(0.99).toFixed(1).padStart(8)} ${worst.toFixed(1).padStart(8)}   ${extra}`;
}

const made = performance.now();
const bomb = gzipBomb(CHUNK, MEMBERS);
console.log(
  `bomb: ${(bomb.byteLength / 2 ** 20).toFixed(1)} MiB packed, ${((CHUNK * MEMBERS) / 2 ** 30).toFixed(0)} GiB unpacked (made in ${((performance.now() - made) / 1000).toFixed(1)} s)\n`,
);
console.log(
  `${"".padEnd(44)} ${"reads".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}`,
);

const quietWindows: number[][] = [];
const bombWindows: number[][] = [];
const answers: string[] = [];
for (let i = 0; i < UPLOADS; i++) {
  // The same reads for as long as an upload takes, with nothing else going on.
  const upload = (async () => {
    const started = performance.now();
    const res = await fetch(`${t.url}/v2/policy-bundles/upload`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${user.token}`,
        "content-type": "application/octet-stream",
      },
      body: new Uint8Array(bomb),
    });
    const body = await res.text();
    return { status: res.status, body, ms: performance.now() - started };
  })();
  bombWindows.push(await readsDuring(upload));
  const answer = await upload;
  answers.push(`${answer.status} after ${answer.ms.toFixed(0)} ms: ${answer.body.slice(0, 140)}`);
  quietWindows.push(await readsDuring(sleep(answer.ms)));
}
// The cogames zip bomb of the finding: 40 entries of 16 MiB of zeros, about 640 KB sent.
const zip = zipBomb(40, 16 << 20);
// A zip that lies: 8 entries that each declare 1 KiB and inflate to 512 MiB, about 4 MB sent.
const LIAR_ENTRY = 512 << 20;
const liar = zipBomb(8, LIAR_ENTRY, { declaredSize: 1024 });

/** Uploads `bytes` as a cogames policy zip and completes it, reading /healthz meanwhile. */
async function completeZip(bytes: Uint8Array, name: string) {
  const headers = { authorization: `Bearer ${user.token}`, "content-type": "application/json" };
  const started = (await (
    await fetch(`${t.url}/stats/policies/submit/presigned-url`, {
      method: "POST",
      headers: { authorization: headers.authorization },
    })
  ).json()) as { upload_url: string; upload_id: string };
  await fetch(started.upload_url, { method: "PUT", body: new Uint8Array(bytes) });
  const completion = (async () => {
    const at = performance.now();
    const res = await fetch(`${t.url}/stats/policies/submit/complete`, {
      method: "POST",
      headers,
      body: JSON.stringify({ upload_id: started.upload_id, name }),
    });
    return { status: res.status, body: await res.text(), ms: performance.now() - at };
  })();
  const reads = await readsDuring(completion);
  const answer = await completion;
  return {
    reads,
    ms: answer.ms,
    answer: `${answer.status} after ${answer.ms.toFixed(0)} ms: ${answer.body.slice(0, 160)}`,
  };
}

const zipWindows: number[][] = [];
const zipAnswers: string[] = [];
const liarWindows: number[][] = [];
const liarMs: number[] = [];
for (let i = 0; i < UPLOADS; i++) {
  const bombed = await completeZip(zip, `bomb-${i}`);
  zipWindows.push(bombed.reads);
  zipAnswers.push(bombed.answer);
  const lied = await completeZip(liar, `liar-${i}`);
  liarWindows.push(lied.reads);
  liarMs.push(lied.ms);
  zipAnswers.push(lied.answer);
}
// The same lying zip as fflate's unzipSync unpacked it: each entry inflated in full into a
// buffer of its declared size (the excess dropped), here on the bench's own thread.
const fflateAt = performance.now();
const fflateFiles = unzipSync(liar);
const fflateMs = performance.now() - fflateAt;

/**
 * What the server did before: `tar` inflated the upload itself (its zlib runs synchronously, on
 * the event loop), here stopped at the same budget of 100 times the archive's size.
 */
async function inflateOnEventLoop(bytes: Buffer): Promise<void> {
  let seen = 0;
  const parser = tar.t({
    onReadEntry: (entry) => {
      entry.on("data", (chunk: Buffer) => {
        seen += chunk.byteLength;
        if (seen > 100 * bytes.byteLength) parser.abort(new Error("budget"));
      });
    },
  });
  // tar's zlib cannot be interrupted mid-chunk: the abort lands late, and the whole upload may
  // inflate first; that is the point of the comparison.
  await bestEffort(pipeline(Readable.from([bytes]), parser));
}
const inline = await readsDuring(inflateOnEventLoop(bomb));

console.log(line("/healthz, nothing else", quietWindows.flat()));
console.log(line("/healthz during a 10 MiB bomb upload", bombWindows.flat(), "target: max < 100"));
console.log(
  line("/healthz while it inflates on the event loop", inline, "(how uploads were inspected)"),
);
console.log(
  line(
    `/healthz during a ${(zip.byteLength / 1024).toFixed(0)} KB cogames zip bomb`,
    zipWindows.flat(),
    "target: max < 100",
  ),
);
console.log(
  line(
    `/healthz during a ${(liar.byteLength / 2 ** 20).toFixed(1)} MiB zip lying about sizes`,
    liarWindows.flat(),
    "target: max < 100",
  ),
);
console.log(
  `\nthe lying zip (8 entries declaring 1 KiB, inflating to ${LIAR_ENTRY >> 20} MiB each): refused in ${liarMs.map((ms) => ms.toFixed(0)).join(", ")} ms; fflate's unzipSync took ${fflateMs.toFixed(0)} ms to unpack it to ${Object.values(fflateFiles).reduce((n, f) => n + f.byteLength, 0)} bytes (the worker's time before, up to the 20,000 ms time budget)`,
);
console.log("\nthe uploads' answers:");
for (const a of [...answers, ...zipAnswers]) console.log(`  ${a}`);
await t.close();
