// Whether a sandbox can start on this machine (bubblewrap, user namespaces, seccomp, bash and
// socat inside), asked once per process: the runner refuses to start without one.
import { spawn } from "node:child_process";

import { type SandboxLimits } from "./limits.ts";
import { baseBwrapArgs, INSIDE, SECCOMP, SECCOMP_FD } from "./sandbox-command.ts";
import { INIT_SHELL } from "./sandbox-init.ts";

let probe: Promise<string | null> | null = null;

/**
 * Why no sandbox can start on this machine (bubblewrap missing, user namespaces off), in one
 * line, or null when one can. Asked once per process.
 */
export function sandboxProblem(options: { fresh?: boolean } = {}): Promise<string | null> {
  if (options.fresh === true) probe = null;
  probe ??= new Promise((resolve) => {
    if (SECCOMP === null)
      return resolve(
        `the sandbox cannot start here: no seccomp filter for the ${process.arch} architecture`,
      );
    const child = spawn(
      "bwrap",
      [
        ...baseBwrapArgs({ ...defaultProbeLimits }),
        "/bin/sh",
        "-c",
        `[ -x ${INIT_SHELL} ] || { echo "bash is not installed" >&2; exit 1; }; command -v socat >/dev/null || { echo "socat is not installed" >&2; exit 1; }; ${INSIDE.node} -e ""`,
      ],
      { env: {}, timeout: 20_000, stdio: ["ignore", "ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const filter = child.stdio[SECCOMP_FD];
    if (filter !== null && filter !== undefined && "end" in filter) {
      filter.on("error", () => undefined);
      filter.end(SECCOMP);
    }
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve(
        `the sandbox cannot start here: ${error.code === "ENOENT" ? "bubblewrap (bwrap) is not installed" : error.message}`,
      ),
    );
    child.once("close", (code, signal) => {
      if (code === 0) return resolve(null);
      const why = stderr.trim().split("\n")[0] || `bwrap exited with ${code ?? signal}`;
      resolve(`the sandbox cannot start here: ${why}`);
    });
  });
  return probe;
}

const defaultProbeLimits: SandboxLimits = {
  memoryBytes: 0,
  pids: 0,
  cpuSeconds: 0,
  openFiles: 0,
  scratchBytes: 1024 * 1024,
  outputBytes: 0,
};
