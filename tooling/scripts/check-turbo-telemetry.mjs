// The repository's own commands never send turbo's telemetry: every package.json script that
// runs turbo sets TURBO_TELEMETRY_DISABLED=1 on that command, none turns telemetry on, and turbo
// itself, run with each script's settings in a fresh home (where no `turbo telemetry disable`
// of the developer's counts), says it is disabled. One line per problem; exits 1 if any.
// Usage: node tooling/scripts/check-turbo-telemetry.mjs [repo root]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const turbo = join(root, "node_modules/.bin/turbo");
const files = execFileSync("git", ["ls-files", "-z", "--", "package.json", "*/package.json"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\0")
  .filter((file) => file !== "");

const problems = [];
/** The env assignments before each turbo command of a script (one entry per command). */
const turboCommands = [];
for (const file of files) {
  const scripts = JSON.parse(readFileSync(join(root, file), "utf8")).scripts ?? {};
  for (const [name, command] of Object.entries(scripts)) {
    const where = `${file}: script "${name}"`;
    if (/turbo\s+telemetry\s+enable|TURBO_TELEMETRY_DISABLED=(?!1\b)/.test(command))
      problems.push(`${where} turns turbo's telemetry on: ${command}`);
    // Each command of the line (split at ; && || |), with its leading VAR=value words.
    for (const part of command.split(/;|&&|\|\|?/)) {
      const words = part.trim().split(/\s+/);
      const at = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
      const program = words[at === -1 ? words.length : at] ?? "";
      if (program !== "turbo" && !program.endsWith("/turbo")) continue;
      const assignments = words.slice(0, at);
      if (!assignments.includes("TURBO_TELEMETRY_DISABLED=1"))
        problems.push(`${where} runs turbo without TURBO_TELEMETRY_DISABLED=1: ${part.trim()}`);
      turboCommands.push({ where, assignments });
    }
  }
}
if (turboCommands.length === 0) problems.push("no script runs turbo: is this the repository root?");

// What turbo itself says with each script's settings, in a home of its own.
const env = { ...process.env };
for (const name of ["TURBO_TELEMETRY_DISABLED", "DO_NOT_TRACK", "CI"]) delete env[name];
for (const { where, assignments } of turboCommands) {
  const home = mkdtempSync(join(tmpdir(), "turbo-telemetry-check-"));
  try {
    const own = Object.fromEntries(
      assignments.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]),
    );
    const status = execFileSync(turbo, ["telemetry", "status"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ...own },
    });
    if (!/Status: Disabled/.test(status))
      problems.push(`${where}: turbo telemetry status says: ${status.trim().split("\n")[0]}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

for (const problem of problems) console.log(problem);
console.log(
  `turbo telemetry: ${turboCommands.length} turbo command(s) in scripts, ${problems.length} problem(s)`,
);
process.exit(problems.length === 0 ? 0 : 1);
