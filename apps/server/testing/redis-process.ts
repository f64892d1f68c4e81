// A Redis of a test's own (the `redis-server` binary, nothing saved to disk) that the test can
// kill and start again on the same port, to see what replicas do while Redis is down.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

import { PATIENCE_MS } from "./patience.ts";
import { accepts } from "./tcp-accepts.ts";

export interface RedisProcess {
  url: string;
  port: number;
  /** SIGKILL, as a crashed Redis: no goodbye to its clients. Settles once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  start(): Promise<void>;
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `host`: the address it listens on (other network namespaces reach it on a bridge's). */
export async function startRedisProcess(host = "127.0.0.1"): Promise<RedisProcess> {
  const port = await freePort(host);
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      "redis-server",
      [
        ...["--port", String(port), "--bind", host, "--save", "", "--appendonly", "no"],
        // Without a password Redis answers only loopback clients unless told otherwise.
        ...["--protected-mode", host === "127.0.0.1" ? "yes" : "no"],
      ],
      { stdio: "ignore" },
    );
    child = started;
    const deadline = Date.now() + PATIENCE_MS;
    while (!(await accepts(host, port))) {
      if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode})`);
      if (Date.now() > deadline) throw new Error(`redis-server never listened on ${port}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await start();
  return {
    url: `redis://${host}:${port}`,
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
