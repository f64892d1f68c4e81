// `bench watchers`' floor: the least a server can do for the same watchers — node:http and the
// same `ws` package, no database, no auth, one topic. It answers the clients' subscribe as a
// replica does (`{type: "subscribed", topics, seq}`, a replay after `since_seq`), and
// `POST /events {types, bytes}` makes one event a type, each message `bytes` long in the
// replica's `{"seq":N,"topic",...}` format, and writes them to every subscriber in one pass
// (one socket write a subscriber): FLOOR_SEND=raw writes the frames built once (as the replica's
// fan-out does), FLOOR_SEND=ws calls `ws.send` for each (the socket corked around them).
// It prints `listening URL`, then trace lines in the replica's format (replica-main.ts).
import { createServer, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

import { WebSocketServer, type WebSocket } from "ws";

const SEND = process.env.FLOOR_SEND === "ws" ? "ws" : "raw";
const TOPIC = "division:floor";

interface Made {
  seq: number;
  /** The message (for ws.send) and the whole unmasked text frame (for the raw socket). */
  payload: Buffer;
  frame: Buffer;
}

const log: Made[] = [];
let lastSeq = 0;
const subscribers = new Set<{ ws: WebSocket; socket: Duplex }>();

const now = () => performance.timeOrigin + performance.now();
function trace(stage: string, seqs: number[], writes?: number): void {
  process.stdout.write(`trace ${JSON.stringify({ stage, seqs, writes, at: now() })}\n`);
}

/** One final, unmasked text frame (RFC 6455 5.2) holding `payload`. */
function textFrame(payload: Buffer): Buffer {
  const header = payload.length < 126 ? 2 : payload.length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + payload.length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = payload.length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(payload.length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  payload.copy(frame, header);
  return frame;
}

function make(type: string, bytes: number): Made {
  lastSeq += 1;
  const seq = lastSeq;
  const head = `{"seq":${seq},"topic":${JSON.stringify(TOPIC)},"type":${JSON.stringify(type)},"data":{"pad":"`;
  const tail = `"},"at":${JSON.stringify(new Date().toISOString())}}`;
  const pad = "x".repeat(Math.max(0, bytes - head.length - tail.length));
  const payload = Buffer.from(head + pad + tail);
  const made = { seq, payload, frame: textFrame(payload) };
  log.push(made);
  return made;
}

/** Events written together: the frames joined once (raw), the messages (ws.send). */
interface Batch {
  seqs: number[];
  frames: Buffer;
  payloads: Buffer[];
}

const batchOf = (made: readonly Made[]): Batch => ({
  seqs: made.map((m) => m.seq),
  frames: Buffer.concat(made.map((m) => m.frame)),
  payloads: made.map((m) => m.payload),
});

function send(to: { ws: WebSocket; socket: Duplex }, batch: Batch): void {
  if (to.ws.readyState !== to.ws.OPEN) return;
  if (SEND === "raw") {
    to.socket.write(batch.frames);
    return;
  }
  to.socket.cork();
  for (const payload of batch.payloads) to.ws.send(payload, { binary: false });
  to.socket.uncork();
}

function fanOut(batch: Batch): void {
  trace("taken", batch.seqs);
  let writes = 0;
  for (const subscriber of subscribers) {
    send(subscriber, batch);
    writes += 1;
  }
  trace("written", batch.seqs, writes);
}

async function body(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

const server = createServer((request, response) => {
  if (request.method !== "POST" || request.url !== "/events") {
    response.writeHead(404).end();
    return;
  }
  void body(request).then((text) => {
    const { types, bytes } = JSON.parse(text) as { types: string[]; bytes: number[] };
    const batch = batchOf(types.map((type, i) => make(type, bytes[i] ?? 0)));
    trace("published", batch.seqs);
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ seqs: batch.seqs }));
    // After the answer has gone (http uncorks it on the next tick).
    setImmediate(() => fanOut(batch));
  });
});

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
server.on("upgrade", (request, socket, head) => {
  wss.handleUpgrade(request, socket, head, (ws) => {
    const subscriber = { ws, socket };
    ws.on("message", (data) => {
      const message = JSON.parse(Buffer.isBuffer(data) ? data.toString("utf8") : "{}") as {
        type?: string;
        topics?: string[];
        since_seq?: number;
      };
      if (message.type !== "subscribe") return;
      ws.send(JSON.stringify({ type: "subscribed", topics: message.topics ?? [], seq: lastSeq }));
      if (message.since_seq !== undefined) {
        const since = message.since_seq;
        send(subscriber, batchOf(log.filter((m) => m.seq > since)));
      }
      subscribers.add(subscriber);
    });
    ws.on("close", () => subscribers.delete(subscriber));
    ws.on("error", () => undefined);
  });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
