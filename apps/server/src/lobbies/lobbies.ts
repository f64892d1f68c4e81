// Lobbies: opened in a league with typed seats, human seats claimed and left, then started —
// one experience request of one episode on the runners — or cancelled. A running lobby ends
// with its episode: reads settle it from its experience request, so no replica holds state.
import { randomInt } from "node:crypto";

import type { ExpressionBuilder, Kysely, Updateable } from "kysely";

import {
  CoworldManifest,
  newId,
  rosterBounds,
  type CreateLobby,
  type Lobby,
  type LobbyAccess,
  type LobbySeatInput,
  type UpdateLobby,
} from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import { canManageLobby } from "../access/play.ts";
import {
  actsAsUser,
  isAuthenticated,
  type AuthenticatedIdentity,
  type Identity,
} from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { cancelEpisode } from "../episodes/episodes.ts";
import { createExperienceRequest } from "../evaluations/experience-requests.ts";
import { divisionChampions, isBundleless } from "../evaluations/roster.ts";
import type { EventBus } from "../events/bus.ts";
import { gameCoworld } from "../games/games.ts";
import { currentChampion } from "../leagues/champions.ts";
import { topCompetitionDivision } from "../leagues/divisions.ts";
import { ladderOf } from "../leagues/ladder.ts";
import { getVisibleLeagueRow } from "../leagues/leagues.ts";
import {
  currentSession,
  endSession,
  isFinal,
  loadSession,
  openSession,
  personLabel,
  type SeatPlan,
} from "../play/sessions.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import {
  conflict,
  forbidden,
  ifNotFound,
  InputError,
  invalidInput,
  notFound,
} from "../shared/errors.ts";
import type { Database, LeaguesTable, LobbiesTable, LobbySeatsTable } from "../store/schema.ts";

const HUMAN: readonly string[] = ["human", "human_open"];
const FINAL_REQUEST: readonly string[] = ["completed", "failed", "cancelled"];

function view(row: LobbiesTable, seats: LobbySeatsTable[]): Lobby {
  return {
    id: row.id,
    league_id: row.league_id,
    creator_user_id: row.creator_user_id,
    variant_id: row.variant_id,
    game_config_overrides: parseJson<Record<string, unknown>>(row.game_config_overrides),
    num_players: row.num_players,
    status: row.status,
    seats: seats
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        position: s.position,
        kind: s.kind,
        user_id: s.user_id,
        player_id: s.player_id,
        policy_version_id: s.policy_version_id,
        claimed_at: s.claimed_at,
      })),
    experience_request_id: row.experience_request_id,
    play_session_id: row.play_session_id,
    episode_request_id: row.episode_request_id,
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    ended_at: row.ended_at,
  };
}

async function seatsOf(db: Kysely<Database>, lobbyId: string): Promise<LobbySeatsTable[]> {
  return db.selectFrom("lobby_seats").selectAll().where("lobby_id", "=", lobbyId).execute();
}

/** The lobby and its league if the caller may see the league; 404 otherwise. */
async function visibleLobby(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<{ row: LobbiesTable; league: LeaguesTable }> {
  const row = await db.selectFrom("lobbies").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("lobby", id);
  const league = await ifNotFound(getVisibleLeagueRow(db, identity, row.league_id), () =>
    notFound("lobby", id),
  );
  return { row, league };
}

const mayManage = canManageLobby;

function whyNot(identity: Identity): string | null {
  if (!isAuthenticated(identity)) return "sign in to create or join a lobby";
  if (!actsAsUser(identity)) return "lobbies are for people: use a user's token";
  return null;
}

/** Seats are taken by people: a machine's (or a player's) token is refused before anything is looked up. */
function refuseNonPersons(identity: Identity): void {
  const reason = whyNot(identity);
  if (reason) throw forbidden(reason);
}

export async function lobbyAccess(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<LobbyAccess> {
  const league = await getVisibleLeagueRow(db, identity, leagueId);
  const reason = whyNot(identity);
  return { league_id: league.id, can_create: reason === null, can_join: reason === null, reason };
}

async function leagueCoworldManifest(
  db: Kysely<Database>,
  league: LeaguesTable,
): Promise<CoworldManifest> {
  const game = await db
    .selectFrom("games")
    .select("coworld_id")
    .where("id", "=", league.game_id)
    .executeTakeFirst();
  const coworld = game?.coworld_id
    ? await db
        .selectFrom("coworlds")
        .select("manifest")
        .where("id", "=", game.coworld_id)
        .executeTakeFirst()
    : undefined;
  if (!coworld)
    throw invalidInput(["path", "league_id"], `league ${league.id}'s game has no coworld to play`);
  return CoworldManifest.parse(parseJson(coworld.manifest));
}

async function checkSeats(
  db: Kysely<Database>,
  league: LeaguesTable,
  body: CreateLobby,
): Promise<void> {
  if (body.seats.length !== body.num_players)
    throw invalidInput(
      ["body", "seats"],
      `give one seat per player: num_players is ${body.num_players}, seats has ${body.seats.length}`,
    );
  const problems: InputError["items"] = [];
  for (const [i, seat] of body.seats.entries())
    problems.push(...(await seatProblems(db, league, seat, ["body", "seats", i])));
  if (problems.length) throw new InputError(problems);
  await checkRoster(db, league, body.seats, ["body", "seats"], body.variant_id ?? null);
}

/** The one seat kind that names each id, and what its seat lacks without it. */
const NAMED_BY_KIND: readonly { field: "user_id" | "player_id"; kind: string; missing: string }[] =
  [
    { field: "user_id", kind: "human", missing: "a human seat names the user it is reserved for" },
    { field: "player_id", kind: "league_player", missing: "a league_player seat names the player" },
  ];

async function seatProblems(
  db: Kysely<Database>,
  league: LeaguesTable,
  seat: LobbySeatInput,
  loc: (string | number)[],
): Promise<InputError["items"]> {
  const problems: InputError["items"] = [];
  for (const { field, kind, missing } of NAMED_BY_KIND) {
    if (seat.kind === kind && seat[field] === undefined)
      problems.push({ loc: [...loc, field], msg: missing, type: "missing" });
    if (seat.kind !== kind && seat[field] !== undefined)
      problems.push({
        loc: [...loc, field],
        msg: `a ${seat.kind} seat takes no ${field}`,
        type: "value_error",
      });
  }
  if (
    seat.user_id !== undefined &&
    !(await db.selectFrom("users").select("id").where("id", "=", seat.user_id).executeTakeFirst())
  ) {
    problems.push({
      loc: [...loc, "user_id"],
      msg: `no user ${seat.user_id}`,
      type: "value_error",
    });
  }
  if (seat.player_id !== undefined) {
    const member = await db
      .selectFrom("league_policy_memberships")
      .select("id")
      .where("league_id", "=", league.id)
      .where("player_id", "=", seat.player_id)
      .executeTakeFirst();
    if (!member)
      problems.push({
        loc: [...loc, "player_id"],
        msg: `player ${seat.player_id} plays no policy in league ${league.id}`,
        type: "value_error",
      });
  }
  return problems;
}

/** The seats that are not closed fit the coworld's roster, and the variant is the coworld's. */
async function checkRoster(
  db: Kysely<Database>,
  league: LeaguesTable,
  seats: readonly { kind: string }[],
  loc: (string | number)[],
  variantId: string | null,
): Promise<void> {
  const manifest = await leagueCoworldManifest(db, league);
  const bounds = rosterBounds(manifest);
  const played = seats.filter((s) => s.kind !== "closed").length;
  if (played < bounds.min || played > bounds.max)
    throw invalidInput(
      loc,
      `${manifest.game.name} seats ${bounds.min}–${bounds.max} players; ${played} seat(s) are not closed`,
    );
  if (variantId !== null && !manifest.variants.some((v) => v.id === variantId)) {
    throw invalidInput(
      ["body", "variant_id"],
      `${manifest.game.name} has no variant ${JSON.stringify(variantId)}`,
      "value_error",
      variantId,
    );
  }
}

export async function createLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  body: CreateLobby,
): Promise<Lobby> {
  refuseNonPersons(identity);
  const league = await getVisibleLeagueRow(db, identity, leagueId);
  await checkSeats(db, league, body);
  const row: LobbiesTable = {
    id: newId("lobby"),
    league_id: league.id,
    creator_user_id: identity.userId,
    variant_id: body.variant_id ?? null,
    game_config_overrides: JSON.stringify(body.game_config_overrides ?? {}),
    num_players: body.num_players,
    status: "open",
    experience_request_id: null,
    episode_request_id: null,
    play_session_id: null,
    error: null,
    created_at: nowIso(),
    started_at: null,
    ended_at: null,
  };
  const seats: LobbySeatsTable[] = body.seats.map((s, position) => ({
    lobby_id: row.id,
    position,
    kind: s.kind,
    user_id: s.user_id ?? null,
    player_id: s.player_id ?? null,
    policy_version_id: null,
    claimed_at: null,
  }));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("lobbies").values(row).execute();
    for (const seat of seats) await trx.insertInto("lobby_seats").values(seat).execute();
  });
  return view(row, seats);
}

/** A running lobby whose episode (or live game) has ended ends too (once, by a conditional update). */
async function settle(db: Kysely<Database>, row: LobbiesTable): Promise<LobbiesTable> {
  if (row.status !== "running") return row;
  let ended: {
    status: "completed" | "failed" | "cancelled";
    error: string | null;
    at: string;
    episode: string | null;
  } | null = null;
  if (row.play_session_id !== null) {
    const session = await currentSession(db, row.play_session_id);
    if (isFinal(session.row.status))
      ended = {
        status: session.row.status,
        error: session.row.error,
        at: session.row.ended_at ?? nowIso(),
        episode: session.row.episode_request_id,
      };
    else if (session.row.episode_request_id !== row.episode_request_id) {
      // The live game has started: the lobby shows its episode from then on.
      await db
        .updateTable("lobbies")
        .set({ episode_request_id: session.row.episode_request_id })
        .where("id", "=", row.id)
        .execute();
      return { ...row, episode_request_id: session.row.episode_request_id };
    }
  } else if (row.experience_request_id !== null) {
    const request = await db
      .selectFrom("experience_requests")
      .select(["status", "error", "completed_at"])
      .where("id", "=", row.experience_request_id)
      .executeTakeFirst();
    if (request && FINAL_REQUEST.includes(request.status)) {
      const episode = row.episode_request_id
        ? await db
            .selectFrom("episode_requests")
            .select(["status", "error"])
            .where("id", "=", row.episode_request_id)
            .executeTakeFirst()
        : undefined;
      const status =
        request.status === "completed"
          ? "completed"
          : request.status === "cancelled"
            ? "cancelled"
            : "failed";
      ended = {
        status,
        error:
          status === "completed"
            ? null
            : (episode?.error ?? request.error ?? `the episode ended ${request.status}`),
        at: request.completed_at ?? nowIso(),
        episode: row.episode_request_id,
      };
    }
  }
  if (!ended) return row;
  await db
    .updateTable("lobbies")
    .set({
      status: ended.status,
      error: ended.error,
      ended_at: ended.at,
      episode_request_id: ended.episode,
    })
    .where("id", "=", row.id)
    .where("status", "=", "running")
    .execute();
  return (
    (await db.selectFrom("lobbies").selectAll().where("id", "=", row.id).executeTakeFirst()) ?? row
  );
}

export async function getLobby(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<Lobby> {
  const { row } = await visibleLobby(db, identity, id);
  const settled = await settle(db, row);
  return view(settled, await seatsOf(db, id));
}

function requireOpen(row: LobbiesTable): void {
  if (row.status !== "open")
    throw conflict(`lobby ${row.id} is ${row.status}, not open`, "lobby_not_open", {
      status: row.status,
    });
}

/** Changes an open lobby, by a conditional update: 409 if it was started or cancelled meanwhile. */
async function updateOpenLobby(
  db: Kysely<Database>,
  id: string,
  set: Updateable<LobbiesTable>,
): Promise<void> {
  const res = await db
    .updateTable("lobbies")
    .set(set)
    .where("id", "=", id)
    .where("status", "=", "open")
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    throw conflict(`lobby ${id} was started or cancelled meanwhile`, "lobby_not_open");
}

/** A start or launch that failed after claiming the lobby gives the claim back. */
async function reopen(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable("lobbies")
    .set({ status: "open", started_at: null })
    .where("id", "=", id)
    .execute();
}

/** The lobby and its league, for what only its managers do (`what`: "starts it", say). */
async function managedLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  what: string,
): Promise<{ row: LobbiesTable; league: LeaguesTable }> {
  const { row, league } = await visibleLobby(db, identity, id);
  if (!mayManage(identity, row, league))
    throw forbidden(
      `only the creator of lobby ${id}, the league's commissioner or an admin ${what}`,
    );
  return { row, league };
}

/** As managedLobby, for a change made while the lobby is open. */
async function managedOpenLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  what: string,
): Promise<{ row: LobbiesTable; league: LeaguesTable }> {
  const managed = await managedLobby(db, identity, id, what);
  requireOpen(managed.row);
  return managed;
}

/** A seat's change applies only while its lobby is still open. */
const whileOpen = (id: string) => (eb: ExpressionBuilder<Database, "lobby_seats">) =>
  eb.exists(
    eb.selectFrom("lobbies").select("id").where("id", "=", id).where("status", "=", "open"),
  );

/** The seat of an open lobby that a person acts on; 404 for a position the lobby has not. */
async function openLobbySeat(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
  position: number,
): Promise<{ row: LobbiesTable; league: LeaguesTable; seat: LobbySeatsTable }> {
  refuseNonPersons(identity);
  const { row, league } = await visibleLobby(db, identity, id);
  requireOpen(row);
  const seat = (await seatsOf(db, id)).find((s) => s.position === position);
  if (!seat) throw notFound("seat", `${position} of lobby ${id}`);
  return { row, league, seat };
}

/** Empties a claimed seat: a reserved seat stays reserved for its person; an open seat opens again. */
async function emptySeat(db: Kysely<Database>, id: string, seat: LobbySeatsTable): Promise<void> {
  await db
    .updateTable("lobby_seats")
    .set({
      user_id: seat.kind === "human" ? seat.user_id : null,
      policy_version_id: null,
      claimed_at: null,
    })
    .where("lobby_id", "=", id)
    .where("position", "=", seat.position)
    .execute();
}

export async function claimSeat(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  position: number,
  policyVersionId: string | undefined,
): Promise<Lobby> {
  const { seat } = await openLobbySeat(db, identity, id, position);
  if (!HUMAN.includes(seat.kind))
    throw conflict(
      `seat ${position} is a ${seat.kind} seat; only human seats are claimed`,
      "seat_not_claimable",
    );
  if (seat.kind === "human" && seat.user_id !== identity.userId)
    throw forbidden(`seat ${position} is reserved for another user`);
  if (seat.claimed_at !== null) throw conflict(`seat ${position} is already claimed`, "seat_taken");
  let versionId: string | null = null;
  if (policyVersionId !== undefined) {
    const version = await db
      .selectFrom("policy_versions as pv")
      .innerJoin("policies as p", "p.id", "pv.policy_id")
      .select(["pv.id", "p.owner_user_id"])
      .where("pv.id", "=", policyVersionId)
      .executeTakeFirst();
    if (!version || !ownsOrAdmin(identity, version.owner_user_id)) {
      throw invalidInput(
        ["body", "policy_version_id"],
        `no policy version ${policyVersionId} of yours`,
        "value_error",
        policyVersionId,
      );
    }
    versionId = version.id;
  }
  const res = await db
    .updateTable("lobby_seats")
    .set({ user_id: identity.userId, policy_version_id: versionId, claimed_at: nowIso() })
    .where("lobby_id", "=", id)
    .where("position", "=", position)
    .where("claimed_at", "is", null)
    .where(whileOpen(id))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    throw conflict(
      `seat ${position} was taken or the lobby left the open state meanwhile`,
      "seat_taken",
    );
  return getLobby(db, identity, id);
}

export async function leaveLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  refuseNonPersons(identity);
  const { row } = await visibleLobby(db, identity, id);
  requireOpen(row);
  const mine = (await seatsOf(db, id)).filter(
    (s) => HUMAN.includes(s.kind) && s.claimed_at !== null && s.user_id === identity.userId,
  );
  if (mine.length === 0) throw conflict(`you hold no seat in lobby ${id}`, "not_seated");
  await db.transaction().execute(async (trx) => {
    for (const seat of mine) await emptySeat(trx, id, seat);
  });
  return getLobby(db, identity, id);
}

/** The player of a league_player seat and its current champion; 409 if it has none. */
async function seatChampion(db: Kysely<Database>, leagueId: string, seat: LobbySeatsTable) {
  const playerId = seat.player_id ?? "";
  const champion = await db
    .transaction()
    .execute((trx) => currentChampion(trx, leagueId, playerId));
  if (!champion)
    throw conflict(
      `player ${playerId} (seat ${seat.position}) has no champion in the league`,
      "lobby_not_ready",
      { positions: [seat.position] },
    );
  return { playerId, champion };
}

async function rosterOf(db: Kysely<Database>, row: LobbiesTable, seats: LobbySeatsTable[]) {
  const roster: { slot: number; player: { policy_ref: string } | { random: true } }[] = [];
  const unclaimed = seats
    .filter((s) => HUMAN.includes(s.kind) && s.policy_version_id === null)
    .map((s) => s.position);
  if (unclaimed.length) {
    throw conflict(
      `seat(s) ${unclaimed.join(", ")} have no policy version to play them (claim with one, or launch the lobby to play live)`,
      "lobby_not_ready",
      { positions: unclaimed },
    );
  }
  let slot = 0;
  for (const seat of [...seats].sort((a, b) => a.position - b.position)) {
    if (seat.kind === "closed") continue;
    if (seat.kind === "random") roster.push({ slot: slot++, player: { random: true } });
    else if (seat.kind === "league_player") {
      const { champion } = await seatChampion(db, row.league_id, seat);
      roster.push({ slot: slot++, player: { policy_ref: champion.policy_version_id } });
    } else roster.push({ slot: slot++, player: { policy_ref: seat.policy_version_id ?? "" } });
  }
  return roster;
}

export async function startLobby(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "starts it");
  const seats = await seatsOf(db, id);
  const roster = await rosterOf(db, row, seats);
  // Claim the start first, so that two starts cannot both create an episode.
  await updateOpenLobby(db, id, { status: "running", started_at: nowIso() });
  try {
    const request = await createExperienceRequest(
      db,
      bus,
      identity,
      {
        target: { league_id: league.id, ...(row.variant_id ? { variant_id: row.variant_id } : {}) },
        roster,
        num_episodes: 1,
        game_config_overrides: parseJson<Record<string, unknown>>(row.game_config_overrides),
        notes: `lobby ${id}`,
      },
      undefined,
      // A claimed seat's version was put here by its owner when they claimed the seat.
      new Set(seats.flatMap((s) => (s.policy_version_id ? [s.policy_version_id] : []))),
      "play",
    );
    await db
      .updateTable("lobbies")
      .set({
        experience_request_id: request.id,
        episode_request_id: request.episodes[0]?.id ?? null,
      })
      .where("id", "=", id)
      .execute();
  } catch (error) {
    // The episode could not be created (no random champion to draw, say): the lobby stays open.
    await reopen(db, id);
    if (error instanceof InputError)
      throw conflict(`the lobby cannot start: ${error.message}`, "lobby_not_ready");
    throw error;
  }
  return getLobby(db, identity, id);
}

export async function cancelLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  await managedOpenLobby(db, identity, id, "cancels it");
  await updateOpenLobby(db, id, { status: "cancelled", ended_at: nowIso() });
  return getLobby(db, identity, id);
}

export async function updateLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  body: UpdateLobby,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "changes it");
  const variantId = body.variant_id === undefined ? row.variant_id : body.variant_id;
  await checkRoster(db, league, await seatsOf(db, id), ["body"], variantId);
  await updateOpenLobby(db, id, {
    variant_id: variantId,
    game_config_overrides:
      body.game_config_overrides === undefined
        ? row.game_config_overrides
        : JSON.stringify(body.game_config_overrides),
  });
  return getLobby(db, identity, id);
}

export async function setSeat(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  position: number,
  seat: LobbySeatInput,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "changes its seats");
  const seats = await seatsOf(db, id);
  if (!seats.some((s) => s.position === position))
    throw notFound("seat", `${position} of lobby ${id}`);
  const problems = await seatProblems(db, league, seat, ["body"]);
  if (problems.length) throw new InputError(problems);
  await checkRoster(
    db,
    league,
    seats.map((s) => (s.position === position ? seat : s)),
    ["body", "kind"],
    row.variant_id,
  );
  // A changed seat starts unclaimed: whoever held it claims again if it is still theirs to claim.
  await db
    .updateTable("lobby_seats")
    .set({
      kind: seat.kind,
      user_id: seat.user_id ?? null,
      player_id: seat.player_id ?? null,
      policy_version_id: null,
      claimed_at: null,
    })
    .where("lobby_id", "=", id)
    .where("position", "=", position)
    .where(whileOpen(id))
    .execute();
  return getLobby(db, identity, id);
}

export async function removeSeatPlayer(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  position: number,
): Promise<Lobby> {
  const { row, league, seat } = await openLobbySeat(db, identity, id, position);
  if (!HUMAN.includes(seat.kind) || seat.claimed_at === null)
    throw conflict(`seat ${position} of lobby ${id} has nobody in it`, "seat_not_claimed");
  if (seat.user_id !== identity.userId && !mayManage(identity, row, league))
    throw forbidden(
      `seat ${position} is someone else's; only they or the lobby's managers empty it`,
    );
  await emptySeat(db, id, seat);
  return getLobby(db, identity, id);
}

/** The league's top competition division, whose champions `random` seats are drawn from. */
async function drawPool(db: Kysely<Database>, league: LeaguesTable) {
  const division = await topCompetitionDivision(db, league.id);
  return division ? divisionChampions(db, league, division) : [];
}

/** The live game's slots: people in human seats, champions in the others, closed seats left out. */
async function livePlan(
  db: Kysely<Database>,
  row: LobbiesTable,
  league: LeaguesTable,
  seats: LobbySeatsTable[],
): Promise<SeatPlan[]> {
  const plan: SeatPlan[] = [];
  let pool: Awaited<ReturnType<typeof drawPool>> | null = null;
  const userIds = seats.flatMap((s) => (s.user_id ? [s.user_id] : []));
  const users = userIds.length
    ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute()
    : [];
  const names = new Map(users.map((u) => [u.id, personLabel(u.email)]));
  for (const seat of [...seats].sort((a, b) => a.position - b.position)) {
    if (seat.kind === "closed") continue;
    if (HUMAN.includes(seat.kind)) {
      plan.push({
        kind: "human",
        label: seat.user_id ? (names.get(seat.user_id) ?? "reserved") : "open",
        userId: seat.user_id,
        joined: false,
      });
    } else if (seat.kind === "league_player") {
      const { playerId, champion } = await seatChampion(db, row.league_id, seat);
      const player = await db
        .selectFrom("players")
        .select("name")
        .where("id", "=", playerId)
        .executeTakeFirst();
      plan.push({
        kind: "policy",
        label: player?.name ?? playerId,
        policyVersionId: champion.policy_version_id,
        playerId,
      });
    } else {
      pool ??= await drawPool(db, league);
      const drawn = pool.length ? pool[randomInt(pool.length)] : undefined;
      if (!drawn)
        throw conflict(
          `league ${league.id} has no competing champion to draw for seat ${seat.position}`,
          "lobby_not_ready",
          { positions: [seat.position] },
        );
      plan.push({
        kind: "policy",
        label: drawn.displayName,
        policyVersionId: drawn.policyVersionId,
        playerId: drawn.playerId,
      });
    }
  }
  return plan;
}

export async function launchLobby(
  db: Kysely<Database>,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "launches it");
  const seats = await seatsOf(db, id);
  const plan = await livePlan(db, row, league, seats);
  // A live game's policies run as processes: a version with no bundle (an image) plays only on
  // docker, which a started lobby's episode gives it.
  for (const [slot, seat] of plan.entries())
    if (seat.kind === "policy" && (await isBundleless(db, seat.policyVersionId)))
      throw conflict(
        `slot ${slot}'s policy version ${seat.policyVersionId} has no bundle: it runs only on docker, so the lobby can be started, not launched live`,
        "lobby_not_ready",
        { slots: [slot] },
      );
  const coworld = await gameCoworld(db, league.game_id);
  if (!coworld)
    throw conflict(`league ${league.id}'s game has no coworld to play`, "lobby_not_ready");
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const ladder = ladderOf(league);
  const variantId = row.variant_id ?? (ladder.ok ? (ladder.settings.variant_id ?? null) : null);
  const variant =
    variantId === null ? manifest.variants[0] : manifest.variants.find((v) => v.id === variantId);
  if (!variant)
    throw conflict(
      `${manifest.game.name} has no variant ${JSON.stringify(variantId)}`,
      "lobby_not_ready",
    );
  // Claim the launch first, so that two launches cannot both open a game.
  await updateOpenLobby(db, id, { status: "running", started_at: nowIso() });
  try {
    const { state } = await openSession(db, box, {
      creatorUserId: identity.userId,
      coworld,
      kind: "lobby",
      variantId: variant.id,
      gameConfig: {
        ...variant.game_config,
        ...(ladder.ok ? ladder.settings.game_config : {}),
        ...parseJson<Record<string, unknown>>(row.game_config_overrides),
      },
      allowSpectators: true,
      lobbyId: id,
      seats: plan,
    });
    await db
      .updateTable("lobbies")
      .set({ play_session_id: state.row.id })
      .where("id", "=", id)
      .execute();
  } catch (error) {
    await reopen(db, id);
    throw error;
  }
  return getLobby(db, identity, id);
}

export async function endLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  const { row } = await managedLobby(db, identity, id, "ends it");
  const now = await settle(db, row);
  if (now.status !== "running")
    throw conflict(`lobby ${id} is ${now.status}, not running`, "lobby_not_running", {
      status: now.status,
    });
  const reason = `ended by ${identity.email}`;
  const res = await db
    .updateTable("lobbies")
    .set({ status: "cancelled", error: reason, ended_at: nowIso() })
    .where("id", "=", id)
    .where("status", "=", "running")
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    throw conflict(`lobby ${id} ended meanwhile`, "lobby_not_running");
  if (now.play_session_id !== null) {
    await endSession(db, (await loadSession(db, now.play_session_id)).row, reason);
  } else if (now.episode_request_id !== null) {
    const episodeId = now.episode_request_id;
    await db.transaction().execute((trx) => cancelEpisode(trx, episodeId, reason));
  }
  return getLobby(db, identity, id);
}
