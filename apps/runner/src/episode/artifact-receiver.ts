// Player artifacts (the runtime contract's COWORLD_PLAYER_ARTIFACT_UPLOAD_URL): for one episode,
// a loopback HTTP endpoint with one unguessable address per slot. A player PUTs (or POSTs) its
// artifact there; the bytes are kept for the runner to upload with the episode's other
// artifacts. An upload over the limit is answered 413 and dropped — it never fails the episode —
// and a later upload of the same slot replaces an earlier one.
// What a seat sends must not grow the runner: an upload is streamed to a file in a directory of
// the runner's own (mounted into no sandbox) as it arrives, never held in memory, and a slot has
// one upload in flight at a time (another is answered 429 until it ends) and a few connections.
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { chmod, readFile, rename, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

import { bestEffort } from "@gauntlet/core";

import { makeTempDir } from "./temp-root.ts";

/** The default size limit of one player's artifact. */
export const DEFAULT_ARTIFACT_MAX_BYTES = 10 * 1024 * 1024;

export interface ArtifactReceiver {
  /** The address slot `slot` uploads to. */
  urlFor(slot: number): string;
  /** Where the receiver listens (a sandboxed slot is given a way to this address only). */
  addressOf(slot: number): { host: string; port: number };
  /** What each slot uploaded (null for none): only uploads that finished count. */
  artifacts(): Promise<(Buffer | null)[]>;
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
  const dir = await makeTempDir("artifacts-");
  const storedPath = (slot: number) => join(dir, `slot-${slot}`);
  const stored: boolean[] = Array.from({ length: slots }, () => false);
  const inFlight: boolean[] = Array.from({ length: slots }, () => false);
  let uploads = 0;

  const receive = (req: IncomingMessage, res: ServerResponse, slot: number) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      answer(res, 413, `the artifact is over the ${maxBytes}-byte limit`);
      req.resume();
      return;
    }
    if (inFlight[slot] === true) {
      answer(res, 429, "an upload of this slot is in progress: one at a time");
      req.resume();
      return;
    }
    inFlight[slot] = true;
    uploads += 1;
    const partial = join(dir, `upload-${slot}-${uploads}`);
    const file = createWriteStream(partial, { mode: 0o600 });
    let size = 0;
    let over = false;
    const end = (status: number, message: string, keep: boolean) => {
      file.end();
      file.once("close", () => {
        void (async () => {
          let kept = false;
          if (keep)
            kept = await rename(partial, storedPath(slot)).then(
              () => true,
              () => false,
            );
          else await bestEffort(rm(partial, { force: true }));
          if (kept) stored[slot] = true;
          inFlight[slot] = false;
          if (res.headersSent) return;
          if (keep && !kept) answer(res, 500, "the runner could not store the artifact");
          else answer(res, status, message);
        })();
      });
    };
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) {
        over = true;
        answer(res, 413, `the artifact is over the ${maxBytes}-byte limit`);
        end(413, "", false);
        return;
      }
      // Back-pressure: the seat waits for the disk, the runner buffers nothing.
      if (!file.write(chunk)) {
        req.pause();
        file.once("drain", () => req.resume());
      }
    });
    req.on("end", () => {
      if (!over) end(201, `stored ${size} bytes`, true);
    });
    // A seat that hangs up mid-upload leaves nothing behind.
    req.on("close", () => {
      if (!req.complete && !over) {
        over = true;
        end(400, "the upload ended early", false);
      }
    });
    req.on("error", () => undefined);
    file.on("error", () => {
      over = true;
      req.resume();
      end(500, "the runner could not store the artifact", false);
    });
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
  // A few connections a slot: each seat reaches only its own address, through the runner.
  server.maxConnections = slots * 4;
  server.headersTimeout = 10_000;
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
    artifacts: () =>
      Promise.all(
        stored.map((done, slot) => (done ? readFile(storedPath(slot)) : Promise.resolve(null))),
      ),
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
