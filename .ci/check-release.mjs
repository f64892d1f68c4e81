// The release setup works: `changeset status` passes, and `changeset version` run in a scratch
// copy of the working tree consumes every changeset, gives the packages of the `fixed` group one
// version and writes their changelogs. Every published (non-private) package must be in that
// group. The working tree itself is never changed. Usage: node .ci/check-release.mjs
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const changesetBin = join(root, "node_modules", ".bin", "changeset");
const problems = [];

function run(cwd, args) {
  const result = spawnSync(changesetBin, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  return result.status === 0;
}

function workspacePackages(dir) {
  const out = [];
  for (const group of [
    "packages",
    "apps",
    "tooling",
    "examples/coworlds",
    "examples/round-reporter",
    "bench",
  ]) {
    const base = join(dir, group);
    if (!existsSync(base)) continue;
    const candidates = existsSync(join(base, "package.json"))
      ? [base]
      : readdirSync(base).map((name) => join(base, name));
    for (const candidate of candidates) {
      const file = join(candidate, "package.json");
      if (existsSync(file))
        out.push({ dir: candidate, json: JSON.parse(readFileSync(file, "utf8")) });
    }
  }
  return out;
}

const config = JSON.parse(readFileSync(join(root, ".changeset", "config.json"), "utf8"));
const fixed = new Set((config.fixed ?? []).flat());
for (const pkg of workspacePackages(root)) {
  if (!pkg.json.private && !fixed.has(pkg.json.name))
    problems.push(
      `${pkg.json.name} is published but not in the fixed group of .changeset/config.json`,
    );
}

console.log("::: changeset status");
if (!run(root, ["status"])) problems.push("`changeset status` failed");

console.log("::: changeset version (dry run in a scratch copy)");
const scratch = mkdtempSync(join(tmpdir(), "gauntlet-release-"));
try {
  const files = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: root, encoding: "utf8" },
  ).split("\0");
  for (const file of files) {
    if (file === "" || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    cpSync(join(root, file), join(scratch, file));
  }
  // The changelog generator is resolved from the copy's node_modules.
  symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
  const pending = readdirSync(join(scratch, ".changeset")).filter(
    (name) => name.endsWith(".md") && name !== "README.md",
  );
  if (!run(scratch, ["version"])) problems.push("`changeset version` failed");
  else {
    const left = readdirSync(join(scratch, ".changeset")).filter(
      (name) => name.endsWith(".md") && name !== "README.md",
    );
    if (left.length > 0) problems.push(`changesets left unconsumed: ${left.join(", ")}`);
    const after = workspacePackages(scratch);
    const versions = new Set(
      after.filter((pkg) => fixed.has(pkg.json.name)).map((pkg) => pkg.json.version),
    );
    if (versions.size > 1)
      problems.push(
        `the fixed group has several versions after versioning: ${[...versions].join(", ")}`,
      );
    if (pending.length > 0) {
      for (const pkg of after.filter((p) => fixed.has(p.json.name))) {
        if (!existsSync(join(pkg.dir, "CHANGELOG.md")))
          problems.push(`${pkg.json.name} got no CHANGELOG.md`);
      }
    }
    console.log(
      `versioned ${pending.length} changesets; fixed group at ${[...versions].join(", ")}`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

for (const problem of problems) process.stderr.write(`release check: ${problem}\n`);
process.exit(problems.length === 0 ? 0 : 1);
