// The hosted service's own commissioner models, for tests: protocol.py read from a fetched
// Metta-AI/coworld (COWORLD_REPO) at test time, never copied into this repository, and run by
// python3 with pydantic 2 through upstream-commissioner-models.py. Tests skip where either is
// absent, saying which.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = process.env.COWORLD_REPO ?? "/work/.mirror/Metta-AI+coworld/repo";
const validator = join(import.meta.dirname, "upstream-commissioner-models.py");

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return null;
  }
}

const source = run("git", ["-C", repo, "show", "HEAD:src/coworld/commissioner/protocol.py"]);
const pydantic = run("python3", ["-c", "import pydantic; print(pydantic.VERSION)"]);

/** Why upstream's models cannot be used here, or null when they can. */
export const upstreamMissing: string | null =
  source === null
    ? `no Metta-AI/coworld at ${repo} (set COWORLD_REPO)`
    : pydantic === null || !pydantic.startsWith("2.")
      ? "python3 with pydantic 2 is not installed"
      : null;

export interface UpstreamReport {
  /** Messages the models accepted, by type. */
  checked: Record<string, number>;
  /** Messages they refused (or would read with a field dropped), with pydantic's errors. */
  refused: { index: number; type: string; errors: string }[];
}

/** Each message validated by upstream's model of its type. */
export function checkWithUpstream(messages: readonly object[]): UpstreamReport {
  if (source === null) throw new Error(upstreamMissing ?? "no upstream protocol");
  const scratch = mkdtempSync(join(tmpdir(), "gauntlet-upstream-"));
  try {
    const protocol = join(scratch, "protocol.py");
    const file = join(scratch, "messages.json");
    writeFileSync(protocol, source);
    writeFileSync(file, JSON.stringify(messages));
    return JSON.parse(
      execFileSync("python3", [validator, protocol, file], { encoding: "utf8" }),
    ) as UpstreamReport;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
