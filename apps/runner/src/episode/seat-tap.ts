// A seat's own way to the game on the process runtime: a loopback port of the runner, piped to
// the game's, that notes when the seat last sent anything. The sandbox's pipe notes the same;
// a player's wall clock blames the seat silent longest (run-episode.ts).
import { createConnection, createServer, type Socket } from "node:net";

export interface SeatTap {
  /** The port the seat connects to instead of the game's. */
  port: number;
  /** When (performance.now()) the seat last sent anything, null if never. */
  lastHeard(): number | null;
  close(): Promise<void>;
}

export async function startSeatTap(host: string, port: number): Promise<SeatTap> {
  const open = new Set<Socket>();
  let heard: number | null = null;
  const server = createServer((client) => {
    const game = createConnection(port, host);
    for (const [self, other] of [
      [client, game],
      [game, client],
    ] as const) {
      open.add(self);
      self.pipe(other);
      self.on("error", () => other.destroy());
      // One side gone: the other is ended gracefully, so what was already sent still arrives.
      self.on("close", () => {
        open.delete(self);
        other.end();
      });
    }
    client.on("data", () => (heard = performance.now()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    lastHeard: () => heard,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
