// GridRush's game server: the coworld runtime contract (docs/runtime.md) around one Episode.
// In: COGAME_HOST, COGAME_PORT, COGAME_CONFIG_URI. Out (file: URIs): COGAME_RESULTS_URI,
// COGAME_SAVE_REPLAY_URI, COGAME_PLAYER_FAILURE_URI; COGAME_PLAYER_STATE when its players keep
// a record across episodes (player-stats.ts). It exits 0 when the episode has ended,
// whether with results or with a player-failure declaration; 2 on a bad environment or config.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

import { parseConfig, type GameConfig } from "./config.ts";
import { Episode } from "./episode.ts";
import { keepStats, startStats } from "./player-stats.ts";
import { refuseUpgrade, WebSocketConnection } from "./websocket.ts";

function log(line: string): void {
  process.stdout.write(`gridrush: ${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`gridrush: ${message}\n`);
  process.exit(2);
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") fail(`${name} is not set`);
  return value;
}

function filePath(name: string): string {
  const uri = requiredEnv(name);
  if (!uri.startsWith("file:"))
    fail(`${name} must be a file: URI (got a ${uri.split(":")[0]}: URI)`);
  return fileURLToPath(uri);
}

const host = requiredEnv("COGAME_HOST");
const port = Number(requiredEnv("COGAME_PORT"));
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail("COGAME_PORT must be a port number");
const resultsPath = filePath("COGAME_RESULTS_URI");
const replayPath = filePath("COGAME_SAVE_REPLAY_URI");
const failurePath = filePath("COGAME_PLAYER_FAILURE_URI");

function loadConfig(): GameConfig {
  try {
    return parseConfig(readFileSync(filePath("COGAME_CONFIG_URI"), "utf8"));
  } catch (error) {
    return fail(
      `cannot read the config: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const config = loadConfig();
// The stateful mode: each seat's record across episodes, when the runner hands one over.
const stats = startStats(process.env.COGAME_PLAYER_STATE);
stats.forEach((s, slot) => {
  if (s) log(`slot ${slot} starts with ${s.games_played} games played, ${s.coins_total} coins`);
});

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/healthz") {
    response.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
  } else {
    response.writeHead(404).end();
  }
});

const episode = new Episode(config, {
  log,
  finish(outcome) {
    // The replay first: the results file is the signal that the episode completed.
    writeFileSync(replayPath, outcome.replay);
    if ("results" in outcome) {
      keepStats(process.env.COGAME_PLAYER_STATE, stats, outcome.results.scores);
      writeFileSync(resultsPath, JSON.stringify(outcome.results));
    } else writeFileSync(failurePath, JSON.stringify(outcome.failure));
    server.close();
    process.exit(0);
  },
});

server.on("upgrade", (request, socket, head) => {
  const url = new URL(request.url ?? "/", "http://game");
  if (url.pathname !== "/player") {
    refuseUpgrade(socket, 404, "Not Found");
    return;
  }
  const slot = Number(url.searchParams.get("slot"));
  const check = episode.check(slot, url.searchParams.get("token") ?? "");
  if (check !== "ok") {
    log(`refused a connection to slot ${url.searchParams.get("slot") ?? "?"}: ${check}`);
    refuseUpgrade(
      socket,
      check === "taken" ? 409 : 403,
      check === "taken" ? "Conflict" : "Forbidden",
    );
    return;
  }
  const connection = WebSocketConnection.accept(request, socket, head);
  if (connection) episode.attach(slot, connection);
});

server.listen(port, host, () => {
  const address = server.address();
  log(
    `listening on ${host}:${typeof address === "object" && address ? address.port : port} for ${config.tokens.length} players`,
  );
  episode.open();
});
