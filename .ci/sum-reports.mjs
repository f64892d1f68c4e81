// Sums the vitest JSON reports of every suite into the one line CI reads. A step that failed
// without a failing test (install, typecheck, lint, a crash) still counts as a failure. Failed
// tests are named, with their first message line, just above the closing line: that tail is
// all a CI log shows of a long run.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, failedStepCount = "0", ...failedSteps] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const counts = [];
const durations = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  counts.push(`${file.replace(/\.json$/, "")} ${report.numPassedTests}/${report.numFailedTests}`);
  for (const suite of report.testResults ?? []) {
    if (suite.startTime && suite.endTime)
      durations.push({
        file: `${file.replace(/\.json$/, "")}:${(suite.name ?? "").replace(`${process.cwd()}/`, "")}`,
        seconds: (suite.endTime - suite.startTime) / 1000,
      });
    // A file can fail with every test passed: a hook (afterAll past its timeout), an import, an
    // error between tests. vitest counts it in numFailedTestSuites only; name it here.
    const tests = suite.assertionResults ?? [];
    if (suite.status === "failed" && !tests.some((test) => test.status === "failed")) {
      const where = suite.name ? suite.name.replace(`${process.cwd()}/`, "") : file;
      const message = String(suite.message ?? "")
        .split("\n")[0]
        .slice(0, 200);
      failures.push(`FAILED ${file} ${where} (outside its tests): ${message || "no message"}`);
      failed += 1;
    }
    for (const test of tests) {
      if (test.status !== "failed") continue;
      const where = suite.name ? suite.name.replace(`${process.cwd()}/`, "") : file;
      const message = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 200);
      failures.push(`FAILED ${file} ${where} > ${test.fullName ?? test.title}: ${message}`);
    }
  }
}
// One line of counts (passed/failed per report) and the slowest files: where CI's time goes.
console.log(`reports (passed/failed): ${counts.join(", ")}`);
durations.sort((a, b) => b.seconds - a.seconds);
console.log(
  `slowest files: ${durations
    .slice(0, 12)
    .map((d) => `${d.file} ${Math.round(d.seconds)} s`)
    .join(", ")}`,
);
for (const line of failures) console.log(line);
const stepFailures = Number(failedStepCount);
if (stepFailures > 0) {
  console.log(`failed steps: ${failedSteps.join(", ")}`);
  if (failed === 0) failed = stepFailures;
}
if (passed + failed === 0) {
  console.log("no test ran");
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
