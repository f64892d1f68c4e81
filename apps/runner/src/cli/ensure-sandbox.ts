// The runner's start on the sandbox runtime: a sandbox must start here, or the runner refuses
// to run. As root on Debian it first installs bubblewrap (and socat, its bridges) with the project's own script, so the
// quick start works on a fresh machine; elsewhere it says, in one line, what is missing.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { sandboxProblem } from "../episode/runtimes/sandbox-probe.ts";

const ENSURE = fileURLToPath(
  new URL("../../../../tooling/scripts/ensure-system-packages.sh", import.meta.url),
);

export async function ensureSandbox(): Promise<string | null> {
  const problem = await sandboxProblem();
  if (problem === null) return null;
  if (process.geteuid?.() !== 0 || !existsSync(ENSURE)) return problem;
  const installed = await new Promise<boolean>((resolve) =>
    execFile("bash", [ENSURE, "bwrap", "socat"], { timeout: 300_000 }, (error) =>
      resolve(error === null),
    ),
  );
  if (!installed) return problem;
  return sandboxProblem({ fresh: true });
}
