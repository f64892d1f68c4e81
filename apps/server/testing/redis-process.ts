// A Redis of a test's own (the `redis-server` binary, nothing saved to disk) that the test can
// kill and start again on the same port, to see what replicas do while Redis is down.
import { spawn, type ChildProcess } from "node:child_process";
import { connect, createServer } from "node:net";

import { PATIENCE_MS } from "./patience.ts";

export interface RedisProcess {
  url: string;
  port: number;
  /** SIGKILL, as a crashed Redis: no goodbye to its clients. Settles once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  start(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function startRedisProcess(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    child = started;
    const deadline = Date.now() + PATIENCE_MS;
    while (!(await accepts(port))) {
      if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode})`);
      if (Date.now() > deadline) throw new Error(`redis-server never listened on ${port}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGKILL");
      await exited;
    },
  };
}
