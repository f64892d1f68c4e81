// Ending a running lobby by hand: its episode is cancelled, or its live game ended.
import type { Kysely } from "kysely";

import type { Lobby } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { cancelEpisode } from "../episodes/episodes.ts";
import { endSession, loadSession } from "../play/sessions.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { managedLobby } from "./lobby-guards.ts";
import { getLobby, settle } from "./lobby-reads.ts";

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
