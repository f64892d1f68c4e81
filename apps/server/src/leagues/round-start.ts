// Starting a division's round: its champions seated by the ladder's strategy (league/seating),
// each planned episode queued as an episode job, in one transaction. The unique index on
// (division_id, active) lets exactly one unsettled round exist per division, whichever replica
// tries; the league lock makes the loser wait and then see the winner's round.
import type { Kysely, Transaction } from "kysely";

import {
  CoworldManifest,
  newId,
  rosterBounds,
  type CommissionerRoundSpec,
  type CoworldVariant,
  type LadderSettings,
  type LeaderboardRow,
} from "@gauntlet/core";

import { createEpisode, type NewParticipant } from "../episodes/episodes.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { gameCoworld } from "../games/games.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import type {
  CoworldsTable,
  Database,
  DivisionsTable,
  LeaguesTable,
  RoundsTable,
} from "../store/schema.ts";
import { competingChampions } from "./champions.ts";
import {
  askBuiltin,
  askBuiltinSchedule,
  type BuiltinSchedule,
  type BuiltinTap,
} from "./commissioner/builtin/builtin-round.ts";
import {
  ladderPlan,
  nextRoundDue,
  type LadderInput,
  type LadderPace,
} from "./commissioner/builtin/ladder-commissioner.ts";
import { selectedRunnable } from "./commissioner/resolve.ts";
import { divisionWithLeague } from "./divisions.ts";
import { ladderOf } from "./ladder.ts";
import { lockLeague } from "./league-lock.ts";
import { policyVersionRefs } from "./refs.ts";
import {
  displayRating,
  initialRatingState,
  type CertainEntrant,
  type RatingState,
} from "./rules/index.ts";
import { storedStandingRows } from "./standings-read.ts";

export type StartOutcome =
  { kind: "started"; round: RoundsTable } | { kind: "skipped"; reason: string; message: string };

interface Setup {
  settings: LadderSettings;
  coworld: CoworldsTable;
  variant: CoworldVariant;
  gameConfig: Record<string, unknown>;
  names: Map<string, string>;
  schedule: Extract<BuiltinSchedule, { kind: "run" }>;
  /** The built-in's RoundSpec for the round (its scheduling phase's answer). */
  spec: CommissionerRoundSpec;
  roundId: string;
  roundNumber: number;
  runtime: "process" | "docker";
}

const skip = (reason: string, message: string): StartOutcome => ({
  kind: "skipped",
  reason,
  message,
});

/** The division's stored standings rows by player (what adaptive seating reads). */
async function standingRows(
  db: Kysely<Database>,
  divisionId: string,
): Promise<Map<string, LeaderboardRow>> {
  return new Map((await storedStandingRows(db, divisionId)).map((r) => [r.player_id, r]));
}

/** What the platform knows before it asks the commissioner: the league's rules and its champions. */
interface Facts {
  league: LeaguesTable;
  settings: LadderSettings;
  coworld: CoworldsTable;
  manifest: CoworldManifest;
  variant: CoworldVariant;
  champions: Awaited<ReturnType<typeof competingChampions>>;
  input: LadderInput;
  roundId: string;
  roundNumber: number;
}

/** The platform's own rules for whether a round may start, and what it is played with. */
async function readFacts(
  db: Kysely<Database>,
  league: LeaguesTable,
  division: DivisionsTable,
  options: { force: boolean; now: Date },
): Promise<Facts | StartOutcome> {
  if (division.archived_at !== null || division.type !== "competition")
    return skip("not_competing", `division ${division.id} is not an open competition division`);
  if (!options.force && (league.rounds_paused_at !== null || league.disabled_at !== null))
    return skip("paused", `league ${league.id} has its rounds paused`);
  const active = await db
    .selectFrom("rounds")
    .select("id")
    .where("division_id", "=", division.id)
    .where("active", "=", 1)
    .executeTakeFirst();
  if (active)
    return skip("round_running", `round ${active.id} is still running in division ${division.id}`);
  if (selectedRunnable(league) !== null)
    return skip(
      "commissioner",
      `league ${league.id} is run by its coworld's commissioner, which makes its rounds`,
    );
  const ladder = ladderOf(league);
  if (!ladder.ok) return skip("invalid_settings", ladder.message);
  const settings = ladder.settings;
  const last = await db
    .selectFrom("rounds")
    .select(["round_number", "started_at"])
    .where("division_id", "=", division.id)
    .orderBy("round_number", "desc")
    .executeTakeFirst();

  const coworld = await gameCoworld(db, league.game_id);
  if (!coworld) return skip("no_coworld", `the league's game has no coworld to play`);
  const manifest = CoworldManifest.safeParse(parseJson(coworld.manifest));
  if (!manifest.success)
    return skip("invalid_coworld", `coworld ${coworld.id} has an invalid manifest`);
  const variant = settings.variant_id
    ? manifest.data.variants.find((v) => v.id === settings.variant_id)
    : manifest.data.variants[0];
  if (!variant)
    return skip(
      "unknown_variant",
      `coworld ${coworld.name} has no variant ${settings.variant_id ?? ""}`,
    );
  const bounds = rosterBounds(manifest.data);
  if (settings.players_per_episode < bounds.min || settings.players_per_episode > bounds.max) {
    return skip(
      "unsupported_players_per_episode",
      `${coworld.name} seats ${bounds.min}–${bounds.max} players; players_per_episode is ${settings.players_per_episode}`,
    );
  }

  const champions = await competingChampions(db, division.id);
  const initial = initialRatingState(settings);
  const rows =
    settings.seating === "adaptive"
      ? await standingRows(db, division.id)
      : new Map<string, LeaderboardRow>();
  const entrants: CertainEntrant[] = champions.flatMap((c) => {
    if (c.player_id === null) return [];
    const state = c.state === null ? initial : parseJson<RatingState>(c.state);
    const row = rows.get(c.player_id);
    return [
      {
        playerId: c.player_id,
        policyVersionId: c.policy_version_id,
        rating: displayRating(state.kind === settings.ranking ? state : initial, settings),
        interval: row?.score_interval ?? null,
        settled: row?.settled ?? false,
        episodes: row?.episodes_played ?? 0,
      },
    ];
  });
  const roundId = newId("round");
  const roundNumber = (last?.round_number ?? 0) + 1;
  const fillers = parseJson<string[]>(league.filler_policy_version_ids);
  return {
    league,
    settings,
    coworld,
    manifest: manifest.data,
    variant,
    champions,
    input: {
      entrants,
      settings,
      fillerPolicyVersionIds: fillers,
      variantId: variant.id,
      pace: {
        divisionId: division.id,
        roundNumber,
        lastStartedAt: last?.started_at ?? null,
        now: options.now,
        force: options.force,
      },
    },
    roundId,
    roundNumber,
  };
}

/** The round as the built-in commissioner schedules it, with the names and runtime it plays with. */
async function prepare(
  db: Kysely<Database>,
  facts: Facts,
  division: DivisionsTable,
  tap: BuiltinTap | undefined,
): Promise<Setup | StartOutcome> {
  const { settings, coworld, variant, champions, roundId, roundNumber } = facts;
  // Whether a round is due is the built-in commissioner's answer to schedule_rounds_request.
  const spec = await askBuiltinSchedule(
    db,
    { league: facts.league, input: facts.input, tap },
    division.id,
  );
  if (!spec) return notDue(facts);
  // The round's schedule is the built-in commissioner's answer to round_start (the protocol a
  // coworld's commissioner speaks), made from the champions and their standings.
  const schedule = await askBuiltin(db, {
    league: facts.league,
    roundId,
    roundNumber,
    manifest: facts.manifest,
    input: facts.input,
    tap,
  });
  if (schedule.kind === "skip") return skip(schedule.reason, schedule.message);

  const seated = new Set(
    schedule.pools.flatMap((p) => p.episodes.flatMap((e) => e.seats.map((s) => s.policyVersionId))),
  );
  const versions = await db
    .selectFrom("policy_versions")
    .select(["id", "bundle_upload_id"])
    .where("id", "in", [...seated])
    .execute();
  const refs = await policyVersionRefs(db, seated);
  const names = new Map<string, string>(
    champions.flatMap((c) => (c.player_id ? [[c.player_id, c.player_name] as const] : [])),
  );
  for (const [id, ref] of refs) names.set(id, `${ref.name} v${ref.version}`);
  return {
    settings,
    coworld,
    variant,
    gameConfig: { ...variant.game_config, ...settings.game_config },
    names,
    schedule,
    spec,
    roundId,
    roundNumber,
    runtime: versions.every((v) => v.bundle_upload_id !== null) ? "process" : "docker",
  };
}

function pace(facts: Facts): LadderPace {
  if (!facts.input.pace) throw new Error("the ladder's pace is read with its facts");
  return facts.input.pace;
}

/** The division's next round is not due yet: when it is. */
function notDue(facts: Facts): StartOutcome {
  const due = nextRoundDue(facts.settings, pace(facts));
  return skip(
    "not_due",
    due ? `the next round is due at ${due.toISOString()}` : "the commissioner scheduled no round",
  );
}

function isSetup(value: Setup | StartOutcome): value is Setup {
  return !("kind" in value);
}

function isFacts(value: Facts | StartOutcome): value is Facts {
  return !("kind" in value);
}

function isUniqueViolation(error: unknown): boolean {
  const text =
    error instanceof Error
      ? `${error.message} ${"code" in error ? String(error.code) : ""}`
      : String(error);
  return /UNIQUE|23505|duplicate key/i.test(text);
}

async function create(
  trx: Transaction<Database>,
  league: LeaguesTable,
  division: DivisionsTable,
  setup: Setup,
): Promise<RoundsTable> {
  const now = nowIso();
  const plan = setup.schedule;
  const round: RoundsTable = {
    id: setup.roundId,
    league_id: league.id,
    division_id: division.id,
    round_number: setup.roundNumber,
    status: "running",
    active: 1,
    commissioner_key: league.commissioner_key,
    execution_backend: setup.runtime,
    coworld_id: setup.coworld.id,
    round_config: JSON.stringify({
      ladder: setup.settings,
      coworld: { id: setup.coworld.id, name: setup.coworld.name, version: setup.coworld.version },
      variant_id: setup.variant.id,
      game_config: setup.gameConfig,
    }),
    round_display: JSON.stringify({
      seating: plan.seating,
      pools: plan.pools.length,
      episodes: plan.episodeCount,
      players: new Set(plan.pools.flatMap((p) => p.playerIds)).size,
    }),
    episode_count: plan.episodeCount,
    idempotency_key: setup.spec.idempotency_key ?? null,
    error: null,
    started_at: now,
    completed_at: null,
    created_at: now,
  };
  await trx.insertInto("rounds").values(round).execute();
  for (const [position, pool] of plan.pools.entries()) {
    const poolId = newId("pool");
    const members = new Map<
      string,
      {
        player_id: string | null;
        player_name: string | null;
        policy_version_id: string;
        role: "champion" | "filler";
      }
    >();
    for (const seat of pool.episodes.flatMap((e) => e.seats)) {
      const key = seat.playerId ?? `filler:${seat.policyVersionId}`;
      if (members.has(key)) continue;
      members.set(key, {
        player_id: seat.playerId,
        player_name: seat.playerId ? (setup.names.get(seat.playerId) ?? null) : null,
        policy_version_id: seat.policyVersionId,
        role: seat.role === "filler" ? "filler" : "champion",
      });
    }
    await trx
      .insertInto("pools")
      .values({
        id: poolId,
        round_id: round.id,
        division_id: division.id,
        position,
        members: JSON.stringify([...members.values()]),
        episode_count: pool.episodes.length,
        created_at: now,
      })
      .execute();
    for (const episode of pool.episodes) {
      const participants: NewParticipant[] = episode.seats.map((seat, i) => ({
        position: i,
        policyVersionId: seat.policyVersionId,
        playerId: seat.playerId,
        displayName:
          (seat.playerId
            ? setup.names.get(seat.playerId)
            : setup.names.get(seat.policyVersionId)) ?? `seat ${i}`,
      }));
      await createEpisode(trx, {
        requesterUserId: league.commissioner_user_id,
        purpose: "round",
        coworld: setup.coworld,
        gameConfig: setup.gameConfig,
        participants,
        leagueId: league.id,
        divisionId: division.id,
        roundId: round.id,
        poolId,
        runtime: setup.runtime,
        commissioner: { requestId: episode.requestId, tags: episode.tags, gameConfigOverrides: {} },
      });
    }
  }
  return round;
}

/**
 * Starts a round in the division unless one is running or none can run. `force` (trigger-round)
 * ignores a pause and `round_interval_minutes`.
 */
export async function startRound(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  divisionId: string,
  options: { force?: boolean; now?: Date; tap?: BuiltinTap } = {},
): Promise<StartOutcome> {
  const opts = { force: options.force ?? false, now: options.now ?? new Date(), tap: options.tap };
  const found = await divisionWithLeague(db, divisionId);
  if (!found) return skip("not_found", `division ${divisionId} was not found`);
  const { division, league } = found;
  // A cheap look first, without the lock or a session: most idle divisions stop here, at the
  // platform's rules or at the plan the ladder would answer with. Under the lock, the
  // commissioner is asked.
  const look = await readFacts(db, league, division, opts);
  if (!isFacts(look)) return look;
  if (nextRoundDue(look.settings, pace(look)) !== null) return notDue(look);
  const preview = ladderPlan(look.input, look.roundId, look.roundNumber);
  if (preview.kind === "skip") return skip(preview.reason, preview.message);
  // The schedule the transaction made its round of: told it was accepted once that commits.
  const made: { schedule: Setup["schedule"] | null } = { schedule: null };
  try {
    const outcome = await withEvents(db, bus, async (trx, emit): Promise<StartOutcome> => {
      const locked = await lockLeague(trx, league.id);
      if (!locked) return skip("not_found", `league ${league.id} was not found`);
      const facts = await readFacts(trx, locked, division, opts);
      if (!isFacts(facts)) return facts;
      const setup = await prepare(trx, facts, division, opts.tap);
      if (!isSetup(setup)) return setup;
      made.schedule = setup.schedule;
      const round = await create(trx, locked, division, setup);
      emit({
        type: "round_started",
        refs: { league: locked, division: division },
        roundId: round.id,
        headline: `${division.name}: round ${round.round_number} started (${setup.schedule.episodeCount} episodes, ${setup.schedule.seating})`,
        payload: {
          round_id: round.id,
          round_number: round.round_number,
          episodes: setup.schedule.episodeCount,
          seating: setup.schedule.seating,
        },
      });
      return { kind: "started", round };
    });
    if (outcome.kind === "started") await made.schedule?.accepted();
    else await made.schedule?.discard(outcome.message);
    return outcome;
  } catch (error) {
    await made.schedule?.discard("the round could not be stored");
    if (isUniqueViolation(error))
      return skip(
        "round_running",
        `another server started a round in division ${division.id} first`,
      );
    throw error;
  }
}
