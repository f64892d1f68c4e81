// A seat a person plays, on the sandbox and docker runtimes: the runner's relay program bridges the game's
// player socket to the server's relay address, which a public server gives as wss:// under its
// own host name (a certificate the runner trusts through NODE_EXTRA_CA_CERTS). The person here is
// a WebSocket endpoint of the test's own over real TLS that answers every turn with a move.
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { LeasedJob } from "@gauntlet/core";

import { buildGridrushImage, dockerEngineProblem } from "../../testing/docker.ts";
import {
  gridrushDir,
  gridrushManifest,
  newWorkDir,
  removeWorkDirs,
} from "../../testing/episodes.ts";
import { BundleCache } from "../worker/bundle-cache.ts";
import { prepareEpisode } from "../worker/episode-input.ts";
import { runEpisode } from "./run-episode.ts";

const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** Server side of RFC 6455, as much as one text conversation needs: whole, unfragmented frames. */
function acceptWebSocket(
  key: string,
  socket: Duplex,
  onText: (text: string, send: (text: string) => void) => void,
): void {
  const accept = createHash("sha1").update(`${key}${WS_GUID}`).digest("base64");
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  const send = (text: string) => {
    const data = Buffer.from(text);
    const header =
      data.length < 126
        ? Buffer.from([0x81, data.length])
        : Buffer.from([0x81, 126, data.length >> 8, data.length & 0xff]);
    socket.write(Buffer.concat([header, data]));
  };
  let pending = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length < 2) return;
      const opcode = (pending[0] ?? 0) & 0x0f;
      let length = (pending[1] ?? 0) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        offset = 10;
      }
      // Client frames are masked (RFC 6455 5.3).
      const mask = pending.subarray(offset, offset + 4);
      offset += 4;
      if (pending.length < offset + length) return;
      const payload = Buffer.from(pending.subarray(offset, offset + length));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
      pending = pending.subarray(offset + length);
      if (opcode === 0x1) onText(payload.toString("utf8"), send);
      if (opcode === 0x8) socket.end(Buffer.from([0x88, 0]));
    }
  });
  socket.on("error", () => {});
}

let server: Server;
let port = 0;
let certPath = "";
let certDir = "";
const received: Record<string, unknown>[] = [];
const paths: string[] = [];
const caBefore = process.env.NODE_EXTRA_CA_CERTS;

beforeAll(async () => {
  // Its own directory: the episodes' are removed after each test.
  certDir = mkdtempSync(join(tmpdir(), "gauntlet-human-seat-"));
  const dir = certDir;
  certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"],
      ...["-keyout", keyPath, "-out", certPath, "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost"],
    ],
    { stdio: "ignore" },
  );
  server = createServer({ key: readFileSync(keyPath), cert: readFileSync(certPath) });
  server.on("upgrade", (request, socket) => {
    paths.push(request.url ?? "");
    acceptWebSocket(String(request.headers["sec-websocket-key"]), socket, (text, send) => {
      const message = JSON.parse(text) as Record<string, unknown>;
      received.push(message);
      // The person moves east every turn.
      if (message.type === "turn")
        send(JSON.stringify({ type: "move", turn: message.turn, move: "E" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
}, 60_000);

afterAll(() => {
  server?.close();
  if (certDir !== "") rmSync(certDir, { recursive: true, force: true });
  if (caBefore === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = caBefore;
});
afterEach(removeWorkDirs);

const dockerProblem = dockerEngineProblem();
/** A coworld bundle's hash, as a job names it (the files are the example's). */
const COWORLD_SHA = "c".repeat(64);

describe("a seat a person plays", () => {
  it.for([
    { runtime: "sandbox" as const, skip: false },
    { runtime: "docker" as const, skip: dockerProblem !== null },
  ])(
    "relays the seat to a wss:// server by its host name, both ways, on the $runtime runtime",
    { timeout: 300_000 },
    async ({ runtime, skip }, context) => {
      if (skip) return context.skip(dockerProblem ?? "");
      if (runtime === "docker") buildGridrushImage();
      paths.length = 0;
      received.length = 0;
      process.env.NODE_EXTRA_CA_CERTS = certPath;
      const manifest = gridrushManifest();
      const greedy = manifest.player.find((p) => p.id === "greedy");
      // The job as a play session's lease gives it: seat 0 a person's, seat 1 a baseline's.
      const job: LeasedJob = {
        job_id: randomUUID(),
        lease_token: "lease",
        attempt: 1,
        lease_expires_at: new Date().toISOString(),
        episode_request_id: "epr_1",
        coworld: { id: "cow_1", name: "gridrush", version: "0.1.0", bundle_sha256: COWORLD_SHA },
        manifest,
        game_config: { width: 7, height: 7, turns: 4, coins: 4, turn_timeout_ms: 5_000 },
        players: [
          {
            position: 0,
            display_name: "Person",
            runnable: { run: null, image: null, env: {} },
            bundle_sha256: null,
            secret_env: {},
            human_relay: { url: `wss://localhost:${port}/v2/play-sessions/s1/relay?token=t1` },
          },
          {
            position: 1,
            display_name: "Greedy",
            runnable: { run: greedy?.run ?? null, image: greedy?.image ?? null, env: {} },
            bundle_sha256: null,
            bundled_player_id: "greedy",
            secret_env: {},
          },
        ],
        secrets: {},
        deadline_ms: 120_000,
      };
      const jobDir = newWorkDir();
      // The coworld's bundle as the cache holds it once extracted: the example's files.
      mkdirSync(join(jobDir, "bundles"));
      symlinkSync(gridrushDir, join(jobDir, "bundles", COWORLD_SHA));
      const prepared = await prepareEpisode(job, {
        cache: new BundleCache(join(jobDir, "bundles"), () => Promise.reject(new Error("none"))),
        jobDir,
        runtime,
      });
      // The coworld's files from the example rather than a bundle by hash.
      const outcome = await runEpisode({
        ...prepared,
        coworldDir: gridrushDir,
        players: prepared.players.map((p, slot) => (slot === 1 ? { ...p, cwd: gridrushDir } : p)),
      });
      expect(outcome.status, outcome.playerLogs[0]).toBe("completed");
      expect(paths).toEqual(["/v2/play-sessions/s1/relay?token=t1"]);
      expect(received.find((m) => m.type === "welcome")).toMatchObject({ slot: 0 });
      expect(received.filter((m) => m.type === "turn")).toHaveLength(4);
      // The person's moves reached the game: seat 0 moved east every turn of the replay.
      const turns = (outcome.replay?.toString() ?? "")
        .split("\n")
        .filter((line) => line.includes('"type":"turn"'))
        .map((line) => (JSON.parse(line) as { moves: string[] }).moves[0]);
      expect(turns).toEqual(["E", "E", "E", "E"]);
      expect(outcome.playerLogs[0]).toContain("human relay: connected to the server");
    },
  );
});
