// What the hosted verbs share: the session argument, and how a session reads for people.
import type { HostedGameSession } from "@gauntlet/core";

import { checkId } from "../../context.ts";
import type { IOStreams } from "../../io.ts";
import { shortTime, writeFields, writeJson, writeTable } from "../../output.ts";

export const sessionArg = (id: string) => checkId("playSession", id, "SESSION");

export function writeSession(io: IOStreams, session: HostedGameSession, json: boolean): void {
  if (json) return writeJson(io, session);
  writeFields(io, [
    ["id", session.session_id],
    ["coworld", session.coworld_id],
    ["variant", session.variant_id],
    ["status", session.status],
    ["lobby", session.lobby_id],
    ["episode", session.episode_request_id],
    ["join", session.join_url],
    ["lobby page", session.lobby_url],
    ["created", shortTime(session.created_at)],
    ["ended", shortTime(session.ended_at)],
    ["error", session.error],
  ]);
  writeTable(
    io,
    ["slot", "player", "user", "policy", "joined"],
    session.players.map((p) => [
      p.slot,
      p.label,
      p.user_id,
      p.player_name,
      p.joined_at ? shortTime(p.joined_at) : "open",
    ]),
  );
}
