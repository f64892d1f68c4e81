// The worker thread that inspects archives (tarball.ts starts and reuses it): one job at a
// time, bytes and budgets in, the listing or the refusal out.
import { parentPort } from "node:worker_threads";

import { inspectArchive, type TarBudgets } from "./tar-inspect.ts";

parentPort?.on("message", (job: { bytes: Uint8Array; budgets: TarBudgets }) => {
  inspectArchive(job.bytes, job.budgets).then(
    (listing) => parentPort?.postMessage(listing),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
  );
});
