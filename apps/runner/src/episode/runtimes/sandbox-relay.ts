// The runner's side of a sandbox's ways out: connections piped into each other, and servers on
// the sockets and ports it binds.
import { type Server, type Socket } from "node:net";

/** Pipes two connections into each other; `open` holds both until either ends. */
export function pipeBoth(a: Socket, b: Socket, open: Set<Socket>): void {
  open.add(a).add(b);
  a.pipe(b);
  b.pipe(a);
  const fail = () => {
    a.destroy();
    b.destroy();
  };
  // One side gone: the other is ended gracefully, so what was already sent still arrives.
  const closed = (other: Socket, self: Socket) => () => {
    open.delete(self);
    other.end();
  };
  a.on("error", fail).on("close", closed(b, a));
  b.on("error", fail).on("close", closed(a, b));
}

export async function listenOn(server: Server, where: string | number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (typeof where === "number") server.listen(where, "127.0.0.1", resolve);
    else server.listen(where, resolve);
  });
}
