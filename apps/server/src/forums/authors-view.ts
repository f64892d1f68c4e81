// Authors as the hosted service's clients show them: `{type, user_id, player_id, name,
// avatar_url}`. A player author is named by its profile (else its name); a user by their default
// (oldest) player, the name they compete under — or, before they have one, by what that player
// will be called (their email's local part, as `defaultPlayer` names it); never the whole email.
import type { Kysely } from "kysely";

import type { Author } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";

export interface AuthorRef {
  author_user_id: string;
  author_player_id: string | null;
}

export type AuthorOf = (ref: AuthorRef) => Author;

/** One lookup for every author of a page of posts, comments or revisions. */
export async function authorsOf(
  db: Kysely<Database>,
  refs: readonly AuthorRef[],
): Promise<AuthorOf> {
  const userIds = [...new Set(refs.map((r) => r.author_user_id))];
  const playerIds = [
    ...new Set(refs.flatMap((r) => (r.author_player_id === null ? [] : [r.author_player_id]))),
  ];
  const players = playerIds.length
    ? await db
        .selectFrom("players as p")
        .leftJoin("player_profiles as pp", "pp.player_id", "p.id")
        .select(["p.id", "p.name", "pp.display_name", "pp.avatar_url"])
        .where("p.id", "in", playerIds)
        .execute()
    : [];
  const byPlayer = new Map(players.map((p) => [p.id, p]));
  const owned = userIds.length
    ? await db
        .selectFrom("players")
        .select(["owner_user_id", "name", "created_at", "id"])
        .where("owner_user_id", "in", userIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute()
    : [];
  const userName = new Map<string, string>();
  for (const p of owned) if (!userName.has(p.owner_user_id)) userName.set(p.owner_user_id, p.name);
  const unnamed = userIds.filter((id) => !userName.has(id));
  const users = unnamed.length
    ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", unnamed).execute()
    : [];
  for (const u of users) userName.set(u.id, u.email.split("@")[0] || "player");
  return (ref) => {
    const player = ref.author_player_id === null ? undefined : byPlayer.get(ref.author_player_id);
    if (ref.author_player_id !== null)
      return {
        type: "player",
        user_id: ref.author_user_id,
        player_id: ref.author_player_id,
        name: player?.display_name ?? player?.name ?? ref.author_player_id,
        avatar_url: player?.avatar_url ?? null,
      };
    return {
      type: "user",
      user_id: ref.author_user_id,
      player_id: null,
      name: userName.get(ref.author_user_id) ?? ref.author_user_id,
      avatar_url: null,
    };
  };
}
