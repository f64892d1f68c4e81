// A minimal server side of RFC 6455 for the game, so that the coworld needs nothing but Node
// (Node has a WebSocket client, not a server). It speaks what players need: text frames
// (fragmented or not), ping/pong and close; no extensions, no subprotocols.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const HANDSHAKE_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/** A player's messages are small; a commissioner's may carry 16 MiB (accept's `maxMessageBytes`). */
const DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;

const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;

/** Answers an upgrade request with an HTTP error and drops the socket. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export class WebSocketConnection {
  onMessage: (text: string) => void = () => {};
  onClose: () => void = () => {};
  /** Called when the peer breaks the framing or sends a message past the limit (then closed). */
  onRefused: (why: string) => void = () => {};

  private readonly socket: Duplex;
  private readonly maxMessageBytes: number;
  private pending = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;
  private closeSent = false;

  /** Completes the handshake of an `upgrade` request, or refuses it and returns null. */
  static accept(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ): WebSocketConnection | null {
    const key = request.headers["sec-websocket-key"];
    if (
      request.headers.upgrade?.toLowerCase() !== "websocket" ||
      typeof key !== "string" ||
      request.headers["sec-websocket-version"] !== "13"
    ) {
      refuseUpgrade(socket, 400, "Bad Request");
      return null;
    }
    const accept = createHash("sha1")
      .update(key + HANDSHAKE_GUID)
      .digest("base64");
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const connection = new WebSocketConnection(socket, maxMessageBytes);
    if (head.length > 0) connection.receive(head);
    return connection;
  }

  private constructor(socket: Duplex, maxMessageBytes: number) {
    this.socket = socket;
    this.maxMessageBytes = maxMessageBytes;
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    // The HTTP server keeps upgraded sockets half-open: the peer's FIN arrives as "end" only.
    socket.on("end", () => {
      this.finish();
      socket.end();
    });
    socket.on("close", () => this.finish());
    socket.on("error", () => this.finish());
  }

  send(text: string): void {
    if (!this.closeSent) this.socket.write(frame(OP_TEXT, Buffer.from(text, "utf8")));
  }

  /** Sends a close frame and ends the socket; `done` runs once the bytes are flushed. */
  close(code = 1000, done?: () => void): void {
    // A socket that is gone has nothing left to flush.
    if (this.closeSent || this.closed || this.socket.destroyed) {
      this.closeSent = true;
      done?.();
      return;
    }
    this.closeSent = true;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.socket.end(frame(OP_CLOSE, payload), done);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }

  private receive(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      // Once closing, nothing more is read: the socket is ending.
      if (this.closeSent) return;
      const parsed = parseFrame(this.pending, this.maxMessageBytes);
      if (parsed === "incomplete") return;
      if (parsed === "invalid" || parsed === "oversized") {
        this.onRefused(
          parsed === "oversized"
            ? `a message past ${this.maxMessageBytes} bytes`
            : "a frame that breaks RFC 6455",
        );
        this.close(parsed === "oversized" ? 1009 : 1002);
        this.socket.destroy();
        return;
      }
      this.pending = this.pending.subarray(parsed.size);
      this.handle(parsed.fin, parsed.opcode, parsed.payload);
    }
  }

  private handle(fin: boolean, opcode: number, payload: Buffer): void {
    if (opcode === OP_PING) {
      if (!this.closeSent) this.socket.write(frame(OP_PONG, payload));
    } else if (opcode === OP_CLOSE) {
      this.close(payload.length >= 2 ? payload.readUInt16BE(0) : 1000);
    } else if (opcode === OP_TEXT || opcode === OP_BINARY || opcode === OP_CONTINUATION) {
      this.fragments.push(payload);
      if (this.fragments.reduce((n, f) => n + f.length, 0) > this.maxMessageBytes) {
        this.onRefused(`a message past ${this.maxMessageBytes} bytes`);
        this.close(1009);
        return;
      }
      if (fin) {
        const message = Buffer.concat(this.fragments).toString("utf8");
        this.fragments = [];
        this.onMessage(message);
      }
    }
  }
}

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header =
    length < 126 ? Buffer.alloc(2) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) {
    header[1] = length;
  } else if (length < 65_536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

type Parsed =
  | { fin: boolean; opcode: number; payload: Buffer; size: number }
  | "incomplete"
  | "invalid"
  | "oversized";

function parseFrame(buffer: Buffer, maxBytes: number): Parsed {
  const [first, second] = buffer;
  if (first === undefined || second === undefined) return "incomplete";
  const masked = (second & 0x80) !== 0;
  // Clients must mask every frame (RFC 6455, 5.1).
  if (!masked) return "invalid";
  let length = second & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return "incomplete";
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return "incomplete";
    const big = buffer.readBigUInt64BE(2);
    if (big > BigInt(maxBytes)) return "oversized";
    length = Number(big);
    offset = 10;
  }
  if (buffer.length < offset + 4 + length) return "incomplete";
  const mask = buffer.subarray(offset, offset + 4);
  const payload = Buffer.from(buffer.subarray(offset + 4, offset + 4 + length));
  for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return { fin: (first & 0x80) !== 0, opcode: first & 0x0f, payload, size: offset + 4 + length };
}
