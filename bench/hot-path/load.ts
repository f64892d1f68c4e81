// The load generator of bench/hot-path, run as a child process so that it never shares the
// measured server's event loop: `connections` keep-alive sockets, each sending one GET, reading
// its whole response and sending the next, for `seconds`. Like autocannon it writes a request
// prepared once and reads responses with a minimal parser (status line, Content-Length or
// chunked), so a loader on one core outruns a bare node:http server on the other.
//
//   node bench/hot-path/load.ts '{"url":"http://127.0.0.1:8787/healthz","connections":32,"seconds":3}'
//
// Prints one line of JSON: {requests, statuses, elapsedMs}.
import { connect, type Socket } from "node:net";

export interface LoadSpec {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  statuses: Record<string, number>;
  elapsedMs: number;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const LAST_CHUNK = Buffer.from("\r\n0\r\n\r\n");
// Header names as node and fastify write them; the loader reads no header but these.
const LENGTHS = [Buffer.from("\r\ncontent-length:"), Buffer.from("\r\nContent-Length:")];
const CHUNKED = [
  Buffer.from("\r\ntransfer-encoding: chunked"),
  Buffer.from("\r\nTransfer-Encoding: chunked"),
];

function headerAt(buf: Buffer, names: readonly Buffer[], end: number): number {
  for (const name of names) {
    const at = buf.indexOf(name);
    if (at !== -1 && at < end) return at + name.length;
  }
  return -1;
}

/** The length of the first complete response in `buf` and its status, or null when it is not all there yet. */
export function completeResponse(buf: Buffer): { length: number; status: number } | null {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd === -1) return null;
  const status = (buf[9] ?? 0) * 100 + (buf[10] ?? 0) * 10 + (buf[11] ?? 0) - 111 * 48;
  let at = headerAt(buf, LENGTHS, headerEnd);
  if (at !== -1) {
    let length = 0;
    while (buf[at] === 32) at += 1;
    for (let c = buf[at] ?? 0; c >= 48 && c <= 57; c = buf[++at] ?? 0)
      length = length * 10 + (c - 48);
    const total = headerEnd + 4 + length;
    return buf.length >= total ? { length: total, status } : null;
  }
  if (headerAt(buf, CHUNKED, headerEnd) !== -1) {
    const end = buf.indexOf(LAST_CHUNK, headerEnd + 2);
    return end === -1 ? null : { length: end + LAST_CHUNK.length, status };
  }
  return { length: headerEnd + 4, status };
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.url);
  const extra = Object.entries(spec.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const request = Buffer.from(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\n${extra}\r\n`,
  );
  const statuses: Record<string, number> = {};
  let requests = 0;
  const started = performance.now();
  const until = started + spec.seconds * 1000;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket: Socket = connect(Number(url.port), url.hostname);
      socket.setNoDelay(true);
      let pending: Buffer = Buffer.alloc(0);
      socket.on("connect", () => socket.write(request));
      socket.on("error", reject);
      socket.on("close", () => resolve());
      socket.on("data", (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          const done = completeResponse(pending);
          if (!done) return;
          pending = pending.subarray(done.length);
          requests += 1;
          statuses[done.status] = (statuses[done.status] ?? 0) + 1;
          if (performance.now() >= until) {
            socket.end();
            return;
          }
          socket.write(request);
        }
      });
    });
  return Promise.all(Array.from({ length: spec.connections }, one)).then(() => ({
    requests,
    statuses,
    elapsedMs: performance.now() - started,
  }));
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
  process.stdout.write(`${JSON.stringify(await runLoad(spec))}\n`);
}
