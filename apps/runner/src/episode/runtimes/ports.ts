// The game's port on the process runtime, where the game listens on the runner's own host. A
// port the kernel chose (listen on 0) and that was closed again can be handed on before the game
// binds it — to an outgoing connection, which takes its port from the same ephemeral range, or to
// another runner asking the same way. So the port is drawn at random from below the ephemeral
// range (which the kernel never hands out by itself), checked free by binding it, and kept from
// this runner's other episodes until the episode gives it back. Another program may still take
// it before the game binds: the episode then fails as infrastructure and is tried again
// (run-episode.ts).
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Ports this runner's episodes hold now. */
const held = new Set<number>();
const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
export function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 0 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export interface HeldPort {
  port: number;
  release: () => void;
}

/** A loopback port no other episode of this runner holds and nothing listens on now. */
export async function holdPort(): Promise<HeldPort> {
  const highest = ephemeralStart() - 1;
  if (highest - LOWEST < 1_000) throw new Error("no port range below the kernel's ephemeral ports");
  for (let tries = 0; tries < 100; tries += 1) {
    const port = randomInt(LOWEST, highest + 1);
    if (held.has(port)) continue;
    held.add(port);
    if (await bindable(port)) return { port, release: () => held.delete(port) };
    held.delete(port);
  }
  throw new Error("found no free port for the game in 100 tries");
}
