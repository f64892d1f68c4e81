// Shared vitest settings. When GAUNTLET_TEST_REPORT_DIR is set (by .ci/run), each package
// also writes a JSON report there so the totals of every suite can be summed into one line.
import { basename } from "node:path";
import { defineConfig, type ViteUserConfig } from "vitest/config";

export function preset(packageDir: string, overrides: ViteUserConfig["test"] = {}): ViteUserConfig {
  const reportDir = process.env.GAUNTLET_TEST_REPORT_DIR;
  const suite = process.env.GAUNTLET_TEST_SUITE ?? "default";
  const reporters = reportDir
    ? ["default", ["json", { outputFile: `${reportDir}/${suite}-${basename(packageDir)}.json` }]]
    : ["default"];
  return defineConfig({
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      reporters: reporters as NonNullable<ViteUserConfig["test"]>["reporters"],
      ...overrides,
    },
  });
}
