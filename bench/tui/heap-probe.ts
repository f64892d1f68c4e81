// Loaded into the terminal UI's process by the benchmark (node --expose-gc --import): on SIGUSR2
// it collects garbage and writes the process's memory figures to BENCH_HEAP_FILE, so that the
// benchmark can read the UI's heap from outside without touching the UI's code.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_HEAP_FILE;
if (file) {
  writeFileSync(file, JSON.stringify({ pid: process.pid }));
  process.on("SIGUSR2", () => {
    globalThis.gc?.();
    writeFileSync(file, JSON.stringify({ pid: process.pid, memory: process.memoryUsage() }));
  });
}
