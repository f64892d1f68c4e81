// The runner's tests drive the sandbox runtime: before any file runs, the sandbox is made ready
// the way the runner's own start does it (as root on Debian, bubblewrap and socat are installed
// by the project's script). Without this, files started together raced the first runner that
// installed them: some saw no bwrap and skipped, others failed on a half-installed machine.
import { ensureSandbox } from "../src/cli/ensure-sandbox.ts";

export default async function setup(): Promise<void> {
  const problem = await ensureSandbox();
  if (problem !== null) console.warn(`sandbox tests will skip or fail: ${problem}`);
}
