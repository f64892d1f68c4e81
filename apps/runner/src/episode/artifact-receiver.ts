// Player artifacts (the runtime contract's COWORLD_PLAYER_ARTIFACT_UPLOAD_URL): for one episode,
// a loopback HTTP endpoint with one unguessable address per slot. A player PUTs (or POSTs) its
// artifact there; the bytes are kept for the runner to upload with the episode's other
// artifacts. An upload over the limit is answered 413 and dropped — it never fails the episode —
// and a later upload of the same slot replaces an earlier one.
import { randomBytes } from "node:crypto";
import { chmod } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The default size limit of one player's artifact. */
export const DEFAULT_ARTIFACT_MAX_BYTES = 10 * 1024 * 1024;

export interface ArtifactReceiver {
  /** The address slot `slot` uploads to. */
  urlFor(slot: number): string;
  /** Where the receiver listens (a sandboxed slot is given a way to this address only). */
  addressOf(slot: number): { host: string; port: number };
  /** What each slot uploaded (null for none), once no upload is in flight. */
  artifacts(): (Buffer | null)[];
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ status, message }));
}

/** Where the receiver listens: the runner's loopback, or a Unix socket whose connections arrive
 * from players at `baseUrl` (the docker runtime's relay). */
export type ReceiverAddress = { host: string } | { socketPath: string; baseUrl: string };

export async function startArtifactReceiver(
  slots: number,
  maxBytes: number,
  where: ReceiverAddress = { host: "127.0.0.1" },
): Promise<ArtifactReceiver> {
  const keys = Array.from({ length: slots }, () => randomBytes(24).toString("hex"));
  const stored: (Buffer | null)[] = Array.from({ length: slots }, () => null);

  const receive = (req: IncomingMessage, res: ServerResponse, slot: number) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      answer(res, 413, `the artifact is over the ${maxBytes}-byte limit`);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        if (!over) answer(res, 413, `the artifact is over the ${maxBytes}-byte limit`);
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (over) return;
      stored[slot] = Buffer.concat(chunks);
      answer(res, 201, `stored ${size} bytes`);
    });
    req.on("error", () => undefined);
  };

  const server = createServer((req, res) => {
    const match = /^\/artifacts\/(\d{1,3})\/([0-9a-f]{48})$/.exec(req.url ?? "");
    const slot = match ? Number(match[1]) : -1;
    if (!match || slot >= slots || keys[slot] !== match[2]) {
      req.resume();
      return answer(res, 404, "no such upload address");
    }
    if (req.method !== "PUT" && req.method !== "POST") {
      req.resume();
      return answer(res, 405, "upload the artifact with PUT or POST");
    }
    receive(req, res, slot);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if ("socketPath" in where) server.listen(where.socketPath, resolve);
    else server.listen(0, where.host, resolve);
  });
  let base: string;
  if ("socketPath" in where) {
    // The relay runs as the containers' user, not as the runner.
    await chmod(where.socketPath, 0o666);
    base = where.baseUrl;
  } else base = `http://${where.host}:${(server.address() as AddressInfo).port}`;
  return {
    addressOf: () =>
      "socketPath" in where
        ? { host: "127.0.0.1", port: 0 }
        : { host: where.host, port: (server.address() as AddressInfo).port },
    urlFor: (slot) => `${base}/artifacts/${slot}/${keys[slot] ?? ""}`,
    artifacts: () => [...stored],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
