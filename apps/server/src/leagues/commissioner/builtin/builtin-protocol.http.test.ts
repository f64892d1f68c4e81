// The built-in commissioners speak the protocol a coworld's commissioner speaks: every message
// of a built-in round's session, the platform's and the built-in's answers, validates against our
// contract's schemas and, where a fetched Metta-AI/coworld and python3 with pydantic 2 are here,
// against the hosted service's own models (protocol.py read from the mirror at test time). What
// the built-in asked for is what the round plays: its request ids and tags are on the episodes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  CommissionerToPlatform,
  CoworldManifest,
  newId,
  PlatformToCommissioner,
  type EpisodeRequest,
} from "@gauntlet/core";

import { client } from "../../../../testing/http.ts";
import { startTestServer, type TestServer } from "../../../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../../../testing/test-league.ts";
import { gameCoworld } from "../../../games/games.ts";
import { ladderOrDefault } from "../../ladder.ts";
import { startRound } from "../../round-start.ts";
import { askBuiltin, type BuiltinTap } from "./builtin-round.ts";

const repo = process.env.COWORLD_REPO ?? "/work/.mirror/Metta-AI+coworld/repo";
const validator = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../testing/upstream-commissioner-models.py",
);

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return null;
  }
}

const upstream = run("git", ["-C", repo, "show", "HEAD:src/coworld/commissioner/protocol.py"]);
const pydantic = run("python3", ["-c", "import pydantic; print(pydantic.VERSION)"]);
const upstreamMissing =
  upstream === null
    ? `no Metta-AI/coworld at ${repo} (set COWORLD_REPO)`
    : pydantic === null || !pydantic.startsWith("2.")
      ? "python3 with pydantic 2 is not installed"
      : null;

let t: TestServer;
const scratch = mkdtempSync(join(tmpdir(), "gauntlet-builtin-"));

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A round of the league's first division, started as the scheduler starts one, with its session tapped. */
async function tappedRound(tl: TestLeague) {
  const heard: { direction: "sent" | "received"; message: object }[] = [];
  const tap: BuiltinTap = (direction, message) => heard.push({ direction, message });
  const { db } = t.server.store;
  const outcome = await startRound(db, t.server.leaguePlay.bus, tl.divisions[0]?.id ?? "", {
    force: true,
    tap,
  });
  return { outcome, heard };
}

/** The built-in asked for a round of the league's first division with no champions seated. */
async function askedDirectly(tl: TestLeague) {
  const heard: { direction: "sent" | "received"; message: object }[] = [];
  const { db } = t.server.store;
  const league = await db
    .selectFrom("leagues")
    .selectAll()
    .where("id", "=", tl.league.id)
    .executeTakeFirstOrThrow();
  const coworld = await gameCoworld(db, league.game_id);
  const manifest = CoworldManifest.parse(JSON.parse(coworld?.manifest ?? "{}"));
  const schedule = await askBuiltin(db, {
    league,
    roundId: newId("round"),
    roundNumber: 1,
    manifest,
    input: {
      entrants: [],
      settings: ladderOrDefault(league),
      variantId: manifest.variants[0]?.id ?? "",
    },
    tap: (direction, message) => heard.push({ direction, message }),
  });
  return { schedule, heard };
}

async function leagueOf(settings: Record<string, unknown>, players: string[]): Promise<TestLeague> {
  const tl = await createTestLeague(t, { settings });
  for (const name of players) await tl.submit(await tl.addPlayer(name));
  return tl;
}

describe("the built-in commissioners over the protocol", () => {
  it.each([
    ["round_robin", { seating: "round_robin" }],
    ["swiss_neighbor", { seating: "swiss_neighbor" }],
    ["adaptive", { seating: "adaptive" }],
    [
      "multiple_seats",
      { seating: "round_robin", players_per_episode: 4, too_few_players: "multiple_seats" },
    ],
  ])(
    "%s: round_start is answered by schedule_episodes, and the round plays what it asked for",
    async (seating, settings) => {
      const tl = await leagueOf(settings, ["Ada", "Bo", "Cy"]);
      const { outcome, heard } = await tappedRound(tl);
      expect(outcome.kind).toBe("started");
      if (outcome.kind !== "started") return;

      const types = heard.map((h) => `${h.direction}:${(h.message as { type: string }).type}`);
      expect(types).toEqual([
        "sent:round_start",
        "received:schedule_episodes",
        "sent:episodes_accepted",
      ]);
      for (const h of heard) {
        const schema = h.direction === "sent" ? PlatformToCommissioner : CommissionerToPlatform;
        expect(schema.safeParse(h.message).success, JSON.stringify(h.message)).toBe(true);
      }
      const start = heard[0]?.message as { round_id: string; memberships: unknown[] };
      expect(outcome.round.id.endsWith(start.round_id)).toBe(true);
      expect(start.memberships).toHaveLength(3);

      const asked = (
        heard[1]?.message as { episodes: { request_id: string; tags: Record<string, string> }[] }
      ).episodes;
      const episodes = await client(t.url, t.adminToken).get<{ entries: EpisodeRequest[] }>(
        `/v2/episode-requests?round_id=${outcome.round.id}&limit=100`,
      );
      expect(episodes.status).toBe(200);
      const played = episodes.body.entries
        .map((e) => e.tags)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      expect(played).toEqual(
        asked.map((a) => a.tags).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      );
      expect(asked.every((a) => a.tags.seating === seating)).toBe(true);
      expect(heard[2]?.message).toEqual({
        type: "episodes_accepted",
        request_ids: asked.map((a) => a.request_id),
      });
    },
  );

  it("a round the ladder cannot run is a round_complete that schedules nothing, and says why", async () => {
    const tl = await leagueOf({ min_players: 3 }, ["Ada", "Bo"]);
    // The scheduler stops such a division at the ladder's own plan before it takes the lock;
    // asked anyway, the commissioner says the same in the protocol.
    expect(await tappedRound(tl)).toMatchObject({
      outcome: { kind: "skipped", reason: "below_min_players" },
      heard: [],
    });
    const { schedule, heard } = await askedDirectly(tl);
    expect(schedule).toMatchObject({ kind: "skip", reason: "below_min_players" });
    expect(heard.map((h) => (h.message as { type: string }).type)).toEqual([
      "round_start",
      "round_complete",
    ]);
    expect(heard[1]?.message).toMatchObject({
      results: [],
      round_display: { skipped: { reason: "below_min_players" } },
    });
  });

  it.skipIf(upstreamMissing !== null)(
    "every message validates against upstream's models",
    async () => {
      const messages: object[] = [];
      for (const settings of [
        { seating: "round_robin" },
        { seating: "swiss_neighbor" },
        { seating: "adaptive" },
      ]) {
        const tl = await leagueOf(settings, ["Ada", "Bo", "Cy"]);
        messages.push(...(await tappedRound(tl)).heard.map((h) => h.message));
      }
      const skipped = await leagueOf({ min_players: 5 }, ["Ada", "Bo"]);
      messages.push(...(await askedDirectly(skipped)).heard.map((h) => h.message));
      const protocol = join(scratch, "protocol.py");
      const file = join(scratch, "messages.json");
      writeFileSync(protocol, upstream ?? "");
      writeFileSync(file, JSON.stringify(messages));
      const report = JSON.parse(
        execFileSync("python3", [validator, protocol, file], { encoding: "utf8" }),
      ) as {
        checked: Record<string, number>;
        refused: unknown[];
      };
      expect(report.refused).toEqual([]);
      for (const type of [
        "round_start",
        "schedule_episodes",
        "episodes_accepted",
        "round_complete",
      ])
        expect(report.checked[type] ?? 0, type).toBeGreaterThan(0);
    },
  );
});
