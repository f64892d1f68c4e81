// Shared vitest settings. When GAUNTLET_TEST_REPORT_DIR is set (by .ci/run), each package
// also writes a JSON report there so the totals of every suite can be summed into one line.
//
// Made for a busy machine: a package's suite takes at most half the machine's cores (turbo runs
// two tasks at a time, see turbo.json), tests wait on events and conditions rather than time
// (a test's timeout only turns a hang into a failure), and the slow end-to-end files,
// `*.e2e.test.ts`, run in a task of their own: `pnpm test` (script `test`) leaves them out, the
// script `test:e2e` runs only them, and `vitest run <file>` runs whatever it is given.
// A file that measures latency under a load it makes (`alone`) runs by itself after the rest
// when a suite has several workers.
//
// Hermetic: every run gets a home of its own (hermetic.ts: HOME and the XDG directories in a
// fresh temporary directory, npm's cache kept), each test file checks it (guard.ts) and the run
// removes it at the end (global-setup.ts).
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig, type ViteUserConfig } from "vitest/config";

import { hermeticEnv } from "./hermetic.ts";

type TestConfig = NonNullable<ViteUserConfig["test"]>;

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export const E2E_FILES = ["src/**/*.e2e.test.ts", "test/**/*.e2e.test.ts"];

/** Worker processes per suite: GAUNTLET_TEST_WORKERS, else half the cores (at least one). */
export function testWorkers(env: Record<string, string | undefined> = process.env): number {
  const asked = Number(env.GAUNTLET_TEST_WORKERS);
  if (Number.isInteger(asked) && asked > 0) return asked;
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/** Whether the package has a `test:e2e` script to run its end-to-end files. */
function hasE2eScript(packageDir: string): boolean {
  try {
    const json = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    return typeof json.scripts?.["test:e2e"] === "string";
  } catch {
    return false;
  }
}

/** Which files a run takes, by the package script that started it. */
function selection(
  packageDir: string,
  script: string | undefined,
): Pick<TestConfig, "include" | "exclude"> {
  const all = ["src/**/*.test.ts", "test/**/*.test.ts"];
  if (script === "test:e2e") return { include: E2E_FILES };
  // `test` leaves the end-to-end files to `test:e2e` — only where that script exists to run them.
  if (script === "test" && hasE2eScript(packageDir))
    return { include: all, exclude: ["**/node_modules/**", ...E2E_FILES] };
  return { include: all };
}

export interface PresetOptions {
  /** Files that measure the package's own latency under a load they make (a flood of sockets,
   * say): when the suite runs in several workers, they run one at a time after the rest, so no
   * other file's load is counted in their bounds. */
  alone?: string[];
}

export function preset(
  packageDir: string,
  overrides: TestConfig = {},
  options: PresetOptions = {},
): ViteUserConfig {
  const { env, setupFiles, globalSetup, ...rest } = overrides;
  const reportDir = process.env.GAUNTLET_TEST_REPORT_DIR;
  const script = process.env.npm_lifecycle_event;
  const suite = `${process.env.GAUNTLET_TEST_SUITE ?? "default"}${script === "test:e2e" ? "-e2e" : ""}`;
  const reporters = (
    reportDir
      ? ["default", ["json", { outputFile: `${reportDir}/${suite}-${basename(packageDir)}.json` }]]
      : ["default"]
  ) as TestConfig["reporters"];
  const chosen = selection(packageDir, script);
  // Each project a home of its own (global-setup.ts removes a project's when it ends).
  const project = (): TestConfig => ({
    ...chosen,
    maxWorkers: testWorkers(),
    // Only a hang should reach these: waits end on their condition, however slow the machine.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    ...rest,
    env: { ...hermeticEnv(), ...env },
    setupFiles: [here("./guard.ts"), ...list(setupFiles)],
    globalSetup: [here("./global-setup.ts"), ...list(globalSetup)],
  });
  const main = project();
  const alone = script === "test:e2e" ? [] : (options.alone ?? []);
  if (alone.length === 0 || (main.maxWorkers ?? 1) === 1)
    return defineConfig({ test: { ...main, reporters } });
  const name = basename(packageDir);
  return defineConfig({
    test: {
      reporters,
      projects: [
        {
          test: {
            ...main,
            name,
            exclude: [...(main.exclude ?? ["**/node_modules/**"]), ...alone],
            sequence: { groupOrder: 0 },
          },
        },
        {
          test: {
            ...project(),
            name: `${name} (alone)`,
            include: alone,
            exclude: [],
            maxWorkers: 1,
            sequence: { groupOrder: 1 },
          },
        },
      ],
    },
  });
}
