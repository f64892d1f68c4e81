// Try the commissioner with real GridRush episodes and nothing but Node: `node commissioner/try.ts
// [rounds]` (2 by default) plays the platform's part of COMMISSIONER.md on this machine. The three
// baselines contend on one hill (random listed first, so it starts as king); each round starts a
// fresh commissioner process, sends round_start with the last round's state, runs every duel it
// schedules as a real episode (game/server.ts and two players, on free ports), reports each
// result or failure, and prints the round_complete: the rankings and the crown.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const here = join(import.meta.dirname, "..");
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const LEAGUE = id(1);
const HILL = id(10);
const CONTENDERS = ["random", "wanderer", "greedy"].map((name, i) => ({
  name,
  version: id(200 + i),
  membership: id(100 + i),
}));
const nameOf = (version: string) => CONTENDERS.find((c) => c.version === version)?.name ?? version;

type Json = Record<string, unknown>;
interface Episode {
  request_id: string;
  variant_id: string;
  policy_version_ids: string[];
  seed?: number | null;
  game_config_overrides?: Json;
}

const manifest = JSON.parse(readFileSync(join(here, "coworld_manifest.json"), "utf8")) as {
  variants: { id: string; name: string; game_config: Json }[];
};
const children = new Set<ChildProcess>();

function start(script: string, env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, [script], {
    cwd: here,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: "ignore",
  });
  children.add(child);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

async function healthy(port: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nothing healthy on port ${port}`);
}

/** One duel as a real episode: the scores per seat, or why it failed. */
async function play(episode: Episode): Promise<{ scores: number[] } | { error: string }> {
  const dir = mkdtempSync(join(tmpdir(), "gridrush-try-"));
  try {
    const variant = manifest.variants.find((v) => v.id === episode.variant_id);
    if (!variant) return { error: `unknown variant ${episode.variant_id}` };
    const tokens = episode.policy_version_ids.map((_, i) => `try-${i}-${Math.random()}`);
    const config = {
      ...variant.game_config,
      ...episode.game_config_overrides,
      tokens,
      seed: episode.seed ?? undefined,
    };
    delete (config as Json).players;
    writeFileSync(join(dir, "config.json"), JSON.stringify(config));
    const port = await freePort();
    const uri = (name: string) => pathToFileURL(join(dir, name)).href;
    const game = start("game/server.ts", {
      COGAME_HOST: "127.0.0.1",
      COGAME_PORT: String(port),
      COGAME_CONFIG_URI: uri("config.json"),
      COGAME_RESULTS_URI: uri("results.json"),
      COGAME_SAVE_REPLAY_URI: uri("replay.jsonl"),
      COGAME_PLAYER_FAILURE_URI: uri("failure.json"),
    });
    await healthy(port);
    const seats = episode.policy_version_ids.map((version, slot) =>
      start(`players/${nameOf(version)}.ts`, {
        COWORLD_PLAYER_WS_URL: `ws://127.0.0.1:${port}/player?slot=${slot}&token=${tokens[slot] ?? ""}`,
      }),
    );
    await Promise.all([game, ...seats]);
    try {
      return {
        scores: (
          JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { scores: number[] }
        ).scores,
      };
    } catch {
      return { error: "the episode wrote no results" };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One round with a fresh commissioner process; returns its round_complete. */
async function round(number: number, state: unknown): Promise<Json> {
  const port = await freePort();
  const exited = start("commissioner/server.ts", {
    COMMISSIONER_HOST: "127.0.0.1",
    COMMISSIONER_PORT: String(port),
  });
  await healthy(port);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/round`);
  await new Promise((resolve) => socket.addEventListener("open", resolve));
  const send = (message: Json) => socket.send(JSON.stringify(message));
  const complete = new Promise<Json>((resolve, reject) => {
    socket.addEventListener("close", () =>
      reject(new Error("the commissioner closed the session")),
    );
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as Json;
      if (message.type === "round_complete") resolve(message);
      if (message.type !== "schedule_episodes") return;
      const episodes = message.episodes as Episode[];
      send({ type: "episodes_accepted", request_ids: episodes.map((e) => e.request_id) });
      for (const episode of episodes)
        void play(episode).then((outcome) => {
          const seats = episode.policy_version_ids;
          if ("error" in outcome) {
            console.log(`  ${episode.request_id}: failed (${outcome.error})`);
            send({ type: "episode_failed", request_id: episode.request_id, error: outcome.error });
            return;
          }
          console.log(
            `  ${episode.request_id}: ${seats.map((v, i) => `${nameOf(v)} ${outcome.scores[i] ?? 0}`).join(" – ")}`,
          );
          send({
            type: "episode_result",
            request_id: episode.request_id,
            scores: seats.map((v, i) => ({
              policy_version_id: v,
              player_id: `ply_${nameOf(v)}`,
              score: outcome.scores[i] ?? 0,
            })),
            game_results: outcome,
          });
        });
    });
  });
  send({
    type: "round_start",
    round_id: id(9000 + number),
    round_number: number,
    league: {
      id: LEAGUE,
      commissioner_key: "container",
      commissioner_config: { commissioner_runnable_id: "king-of-the-hill" },
    },
    divisions: [{ id: HILL, name: "Hill", level: 1, type: "competition" }],
    memberships: CONTENDERS.map((c) => ({
      id: c.membership,
      league_id: LEAGUE,
      division_id: HILL,
      policy_version_id: c.version,
      player_id: `ply_${c.name}`,
      status: "competing",
      substatus: "active",
      is_champion: true,
    })),
    recent_results: [],
    variants: manifest.variants.map((v) => ({ ...v, num_agents: 4 })),
    completed_episodes: [],
    state,
  });
  const done = await complete.catch(async (error: unknown) => {
    await exited;
    throw error;
  });
  await exited;
  return done;
}

const rounds = Number(process.argv[2] ?? "2");
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
let state: unknown = null;
for (let n = 1; n <= rounds; n += 1) {
  console.log(`round ${n}`);
  const complete = await round(n, state);
  const [division] = complete.results as {
    rankings: {
      policy_version_id: string;
      rank: number;
      result_metadata: { role: string; reign?: number };
    }[];
  }[];
  for (const r of division?.rankings ?? [])
    console.log(
      `  ${r.rank}. ${nameOf(r.policy_version_id)} (${r.result_metadata.role}${r.result_metadata.reign ? `, reign ${r.result_metadata.reign}` : ""})`,
    );
  state = complete.state;
}
console.log(`state: ${JSON.stringify(state)}`);
