// The worker thread that inspects archives (tarball.ts starts and reuses it): one job at a
// time, bytes and budgets in, the listing (or the files with their bytes, or a cogames zip
// repacked as tar.gz) or the refusal out.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";

import { inspectArchive, readArchiveFiles, type TarBudgets } from "./tar-inspect.ts";
import { repackZip } from "./zip-repack.ts";

// On Linux a nice value belongs to a thread: this worker yields the CPU to the event loop (on
// other systems it would renice the whole server, so it is left alone there).
if (process.platform === "linux") setPriority(19);

export type ArchiveJob =
  | { kind: "list" | "read"; bytes: Uint8Array; budgets: TarBudgets }
  | { kind: "zip"; bytes: Uint8Array; budgets: TarBudgets; root: string };

parentPort?.on("message", (job: ArchiveJob) => {
  (job.kind === "zip"
    ? Promise.resolve().then(() => repackZip(job.bytes, job.budgets, job.root))
    : job.kind === "read"
      ? readArchiveFiles(job.bytes, job.budgets)
      : inspectArchive(job.bytes, job.budgets)
  ).then(
    (listing) => parentPort?.postMessage(listing),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
  );
});
