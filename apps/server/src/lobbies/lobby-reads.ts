// Reading a lobby. A running lobby ends with its episode (or live game): a read settles it from
// its experience request or play session, so no replica holds a lobby's state.
import type { Kysely } from "kysely";

import type { Lobby, LobbyAccess } from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import { getVisibleLeagueRow } from "../leagues/leagues.ts";
import { isFinal } from "../play/session-status.ts";
import { currentSession } from "../play/sessions.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database, LobbiesTable } from "../store/schema.ts";
import { whyNot } from "./lobby-guards.ts";
import { seatsOf, view, visibleLobby } from "./lobby-rows.ts";

const FINAL_REQUEST: readonly string[] = ["completed", "failed", "cancelled"];

/** A running lobby whose episode (or live game) has ended ends too (once, by a conditional update). */
export async function settle(db: Kysely<Database>, row: LobbiesTable): Promise<LobbiesTable> {
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

export async function lobbyAccess(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<LobbyAccess> {
  const league = await getVisibleLeagueRow(db, identity, leagueId);
  const reason = whyNot(identity);
  return { league_id: league.id, can_create: reason === null, can_join: reason === null, reason };
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
