// The web view pages' script: TypeScript under `client/`, bundled with esbuild (and uPlot, the
// one charting library) once per process, on first request, and kept in memory. The server runs
// from source, so there is no build step to forget: what is served is what the tree holds.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const ENTRY = fileURLToPath(new URL("./client/main.ts", import.meta.url));

let bundled: Promise<string> | undefined;
let chartStyles: Promise<string> | undefined;

/** The bundled script (an IIFE: the pages load it as a classic script). */
export function webScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  }).then((result) => {
    const file = result.outputFiles[0];
    if (!file) throw new Error("esbuild wrote no web view script");
    return file.text;
  });
  // A failed build is not cached: the next request tries again (and says why in the log).
  bundled.catch(() => (bundled = undefined));
  return bundled;
}

/** uPlot's own stylesheet, inlined into each page (the pages load styles from nowhere else). */
export function webChartStyles(): Promise<string> {
  chartStyles ??= readFile(
    createRequire(import.meta.url).resolve("uplot/dist/uPlot.min.css"),
    "utf8",
  );
  return chartStyles;
}
