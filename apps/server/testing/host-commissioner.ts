// For tests only: a CommissionerLauncher that starts a coworld's commissioner program as a plain
// process on this machine (no sandbox: the runner's runtime is what starts one for real) and
// carries the driver's messages over a real WebSocket to its /round, as COMMISSIONER.md says:
// a free port, /healthz polled, one session per process, the process stopped when the session
// closes. It lets the server's driver be tested against a real commissioner program, GridRush's.
import { spawn } from "node:child_process";
import { createServer } from "node:net";

import { COMMISSIONER_MESSAGE_MAX_BYTES } from "@gauntlet/core";

import {
  CommissionerFailure,
  type CommissionerChannel,
  type CommissionerLauncher,
  type CommissionerTarget,
} from "../src/leagues/commissioner/channel.ts";

const LOG_CAP = 64 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** Starts `node <script>` in `dir` (the script is the manifest's `run[1]`) for each session. */
export function hostLauncher(
  dir: string,
  script: string,
): CommissionerLauncher & { opened: CommissionerTarget[]; logs: string[] } {
  const launcher = {
    opened: [] as CommissionerTarget[],
    logs: [] as string[],
    async open(target: CommissionerTarget): Promise<CommissionerChannel> {
      launcher.opened.push(target);
      const port = await freePort();
      const child = spawn(process.execPath, [script], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? "",
          COMMISSIONER_HOST: "127.0.0.1",
          COMMISSIONER_PORT: String(port),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let log = "";
      const index = launcher.logs.push("") - 1;
      const append = (chunk: Buffer) => {
        log = `${log}${chunk.toString()}`.slice(-LOG_CAP);
        launcher.logs[index] = log;
      };
      child.stdout.on("data", append);
      child.stderr.on("data", append);
      const stop = () => child.kill("SIGKILL");
      try {
        await healthy(port);
        return await channel(new WebSocket(`ws://127.0.0.1:${port}/round`), stop, () => log);
      } catch (error) {
        stop();
        throw error;
      }
    },
  };
  return launcher;
}

async function healthy(port: number): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new CommissionerFailure("startup_timeout", "/healthz never answered 200");
}

function channel(
  socket: WebSocket,
  stop: () => void,
  log: () => string,
): Promise<CommissionerChannel> {
  const inbox: string[] = [];
  let ended: CommissionerFailure | null = null;
  let wake: (() => void) | null = null;
  socket.addEventListener("message", (event) => {
    inbox.push(String(event.data));
    wake?.();
  });
  socket.addEventListener("close", () => {
    ended ??= new CommissionerFailure("disconnected", "the commissioner closed the socket");
    stop();
    wake?.();
  });
  const take = (): unknown => {
    const text = inbox.shift() ?? "";
    if (Buffer.byteLength(text) > COMMISSIONER_MESSAGE_MAX_BYTES)
      throw new CommissionerFailure("oversized", "a message past the limit");
    try {
      return JSON.parse(text);
    } catch {
      throw new CommissionerFailure("malformed", "a message that is not JSON");
    }
  };
  const open: CommissionerChannel = {
    send(message) {
      if (ended) return Promise.reject(ended);
      socket.send(JSON.stringify(message));
      return Promise.resolve();
    },
    async next(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (inbox.length === 0) {
        if (ended) throw ended;
        if (Date.now() >= deadline)
          throw new CommissionerFailure("timeout", `nothing in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now())));
        });
      }
      return take();
    },
    close() {
      ended ??= new CommissionerFailure("disconnected", "closed by the platform");
      socket.close(1000);
      stop();
      return Promise.resolve();
    },
    log: () => Promise.resolve(log()),
  };
  return new Promise((resolve, reject) => {
    socket.addEventListener("open", () => resolve(open));
    socket.addEventListener("error", () =>
      reject(new CommissionerFailure("startup_timeout", "no WebSocket on /round")),
    );
  });
}
