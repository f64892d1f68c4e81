// The first process inside a sandbox (sandbox.ts): it opens the sandbox's only ways out — each a
// forwarder between a loopback TCP port and a Unix socket the runner bound in — and then runs the
// runnable's argv as its child, passing signals on and exiting as it exits. It is trusted code
// but runs with the runnable's rights: a runnable that kills it only cuts its own connections.
// Usage: node sandbox-init.ts '<forwards JSON>' <program> [args…]
import { spawn } from "node:child_process";
import { createConnection, createServer, type Socket } from "node:net";

export interface Forward {
  /** Where this side accepts: a loopback TCP port or a Unix socket path. */
  listen: { port: number } | { path: string };
  /** Where each accepted connection is piped to. */
  to: { port: number } | { path: string };
}

function connectTo(to: Forward["to"]): Socket {
  return "port" in to ? createConnection(to.port, "127.0.0.1") : createConnection(to.path);
}

function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on("error", end).on("close", end);
  b.on("error", end).on("close", end);
}

async function listen(forward: Forward): Promise<void> {
  const server = createServer((client) => pipeBoth(client, connectTo(forward.to)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if ("port" in forward.listen) server.listen(forward.listen.port, "127.0.0.1", resolve);
    else server.listen(forward.listen.path, resolve);
  });
  server.unref();
}

const [forwardsJson, program, ...args] = process.argv.slice(2);
if (forwardsJson === undefined || program === undefined) {
  console.error("sandbox-init: usage: sandbox-init '<forwards JSON>' <program> [args…]");
  process.exit(2);
}
for (const forward of JSON.parse(forwardsJson) as Forward[]) await listen(forward);

const child = spawn(program, args, { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const)
  process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  console.error(`sandbox-init: could not start ${program}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal !== null) {
    // Report a signal the way a shell does; the runner reads the limit that caused it elsewhere.
    const numbers: Partial<Record<NodeJS.Signals, number>> = {
      SIGKILL: 9,
      SIGTERM: 15,
      SIGXCPU: 24,
      SIGXFSZ: 25,
      SIGSEGV: 11,
      SIGABRT: 6,
    };
    process.exit(128 + (numbers[signal] ?? 1));
  }
  process.exit(code ?? 1);
});
