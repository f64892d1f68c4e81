// The worker thread that inspects archives (tarball.ts starts and reuses it): one job at a
// time, bytes and budgets in, the listing (or the files with their bytes) or the refusal out.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";

import { inspectArchive, readArchiveFiles, type TarBudgets } from "./tar-inspect.ts";

// On Linux a nice value belongs to a thread: this worker yields the CPU to the event loop (on
// other systems it would renice the whole server, so it is left alone there).
if (process.platform === "linux") setPriority(19);

parentPort?.on("message", (job: { bytes: Uint8Array; budgets: TarBudgets; read: boolean }) => {
  (job.read
    ? readArchiveFiles(job.bytes, job.budgets)
    : inspectArchive(job.bytes, job.budgets)
  ).then(
    (listing) => parentPort?.postMessage(listing),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
  );
});
