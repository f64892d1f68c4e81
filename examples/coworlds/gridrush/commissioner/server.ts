// GridRush's commissioner: king of the hill, over the hosted service's commissioner protocol
// (Metta-AI/coworld COMMISSIONER.md). It listens on COMMISSIONER_HOST:COMMISSIONER_PORT (the
// protocol's 0.0.0.0:8080 when unset), answers GET /healthz and serves one session on
// WEBSOCKET /round; when that session ends it exits: 0 when it ended as the protocol allows
// (the platform closed it, round_complete was sent, or the round was aborted), 1 when a message
// it could not understand (or one past the protocol's 16 MiB) ended it, 2 before listening on a
// bad environment. Its memory of past rounds is the state blob only, as upstream's
// one-container-per-round lifecycle wants.
import { createServer } from "node:http";

import { refuseUpgrade, WebSocketConnection } from "../game/websocket.ts";
import { Session } from "./session.ts";

/** The protocol's bound on one message (commissioner/protocol.py). */
const MESSAGE_MAX_BYTES = 16 * 1024 * 1024;

function log(line: string): void {
  process.stdout.write(`gridrush-commissioner: ${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`gridrush-commissioner: ${message}\n`);
  process.exit(2);
}

const host = process.env.COMMISSIONER_HOST || "0.0.0.0";
const port = Number(process.env.COMMISSIONER_PORT || "8080");
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  fail("COMMISSIONER_PORT must be a port number");

let taken = false;

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/healthz") {
    response.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
  } else {
    response.writeHead(404).end();
  }
});

function exit(code: number): void {
  server.close();
  process.exit(code);
}

server.on("upgrade", (request, socket, head) => {
  const url = new URL(request.url ?? "/", "http://commissioner");
  if (url.pathname !== "/round") {
    refuseUpgrade(socket, 404, "Not Found");
    return;
  }
  // One session per process: what one session learns never reaches another.
  if (taken) {
    log("refused a second connection to /round");
    refuseUpgrade(socket, 409, "Conflict");
    return;
  }
  const connection = WebSocketConnection.accept(request, socket, head, MESSAGE_MAX_BYTES);
  if (!connection) return;
  taken = true;
  log("session opened");
  const session = new Session({
    send: (message) => connection.send(JSON.stringify(message)),
    end: (closeCode, ok) => {
      log(ok ? "session done" : "session ended on a protocol error");
      connection.close(closeCode, () => exit(ok ? 0 : 1));
      // A peer that never lets the close flush does not keep the process alive.
      setTimeout(() => exit(ok ? 0 : 1), 2_000);
    },
    log,
  });
  let refused = false;
  connection.onMessage = (text) => session.receive(text);
  connection.onRefused = (why) => {
    refused = true;
    log(`refused ${why}; ending the session`);
  };
  connection.onClose = () => {
    if (session.ended) return;
    if (!refused) log("the platform closed the session");
    exit(refused ? 1 : 0);
  };
});

process.on("SIGTERM", () => {
  log("stopped (SIGTERM)");
  exit(0);
});

server.listen(port, host, () => {
  const address = server.address();
  log(`listening on ${host}:${typeof address === "object" && address ? address.port : port}`);
});
