// A TCP forwarder: listens on one address and passes each connection to another. The test's
// PostgreSQL listens on loopback only; replicas in other network namespaces reach it through
// this, on the bridge's address, as they would reach a database server on the network.
import { connect, createServer, type Socket } from "node:net";

export interface TcpForward {
  port: number;
  close(): Promise<void>;
}

export async function startTcpForward(
  listenHost: string,
  target: { host: string; port: number },
): Promise<TcpForward> {
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(target.port, target.host);
    for (const socket of [inbound, outbound]) {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on("error", () => outbound.destroy());
    outbound.on("error", () => inbound.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, listenHost, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open connections (replicas' pools) would keep close() waiting.
        for (const socket of open) socket.destroy();
      }),
  };
}
