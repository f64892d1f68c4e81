// `bench watchers`' lighter client (BENCH_CLIENT=raw): RFC 6455 on a bare TCP socket — the
// upgrade, masked client frames, and the server's frames cut from the stream as they arrive —
// with none of a WebSocket library's stream machinery. The clients share the machine's two cores
// with the server they measure, so what they spend a message is taken from it.
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/** What clients.ts needs of a WebSocket, whichever client it runs. */
export interface BenchSocket {
  send(text: string): void;
  terminate(): void;
}

export interface BenchSocketEvents {
  open(): void;
  /** A text message's bytes (a view into the stream: read it before returning). */
  message(data: Buffer): void;
  /** The server closed the connection, or it broke (either way once). */
  close(): void;
}

const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;

/** One masked client frame (RFC 6455 5.3: every frame a client sends is masked). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const extended = length < 126 ? 0 : length < 65_536 ? 2 : 8;
  const frame = Buffer.allocUnsafe(2 + extended + 4 + length);
  frame[0] = 0x80 | opcode;
  if (extended === 0) frame[1] = 0x80 | length;
  else if (extended === 2) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, 2 + extended);
  const start = 2 + extended + 4;
  for (let i = 0; i < length; i += 1) frame[start + i] = (payload[i] ?? 0) ^ (mask[i & 3] ?? 0);
  return frame;
}

export function openRawSocket(wsUrl: string, on: BenchSocketEvents): BenchSocket {
  const url = new URL(wsUrl);
  const socket: Socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.setNoDelay(true);
  let upgraded = false;
  let closed = false;
  /** Bytes read and not yet a whole frame (most reads hold whole frames: none kept then). */
  let pending: Buffer | null = null;

  const close = () => {
    if (closed) return;
    closed = true;
    socket.destroy();
    on.close();
  };

  socket.on("connect", () => {
    socket.write(
      `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });

  /** Cuts the frames out of `data`; keeps a partial one for the next read. */
  const frames = (data: Buffer) => {
    let offset = 0;
    while (data.length - offset >= 2) {
      const first = data[offset] ?? 0;
      const second = data[offset + 1] ?? 0;
      let length = second & 0x7f;
      let header = 2;
      if (length === 126) {
        if (data.length - offset < 4) break;
        length = data.readUInt16BE(offset + 2);
        header = 4;
      } else if (length === 127) {
        if (data.length - offset < 10) break;
        length = Number(data.readBigUInt64BE(offset + 2));
        header = 10;
      }
      if (data.length - offset < header + length) break;
      const payload = data.subarray(offset + header, offset + header + length);
      offset += header + length;
      const opcode = first & 0x0f;
      if (opcode === OP_TEXT) on.message(payload);
      else if (opcode === OP_PING) socket.write(clientFrame(0xa, payload));
      else if (opcode === OP_CLOSE) {
        close();
        return;
      }
    }
    pending = offset < data.length ? Buffer.from(data.subarray(offset)) : null;
  };

  socket.on("data", (chunk: Buffer) => {
    let data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    if (!upgraded) {
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) {
        pending = data;
        return;
      }
      if (!data.subarray(0, 12).toString("latin1").startsWith("HTTP/1.1 101")) {
        close();
        return;
      }
      upgraded = true;
      data = data.subarray(end + 4);
      on.open();
    }
    frames(data);
  });
  socket.on("error", () => close());
  socket.on("close", () => close());

  return {
    send: (text) => {
      if (upgraded && !closed) socket.write(clientFrame(OP_TEXT, Buffer.from(text)));
    },
    terminate: () => {
      closed = true;
      socket.destroy();
    },
  };
}
