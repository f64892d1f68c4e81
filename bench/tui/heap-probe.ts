// Loaded into the terminal UI's process by the benchmark (node --expose-gc --import): on SIGUSR2
// it collects garbage and writes the process's memory figures to BENCH_HEAP_FILE, so that the
// benchmark can read the UI's heap from outside without touching the UI's code.
import { renameSync, writeFileSync } from "node:fs";

const file = process.env.BENCH_HEAP_FILE;
// Written beside and renamed over, so that the reader never sees half a report.
const report = (path: string, value: unknown) => {
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
};
if (file) {
  report(file, { pid: process.pid });
  process.on("SIGUSR2", () => {
    globalThis.gc?.();
    report(file, { pid: process.pid, memory: process.memoryUsage() });
  });
}
