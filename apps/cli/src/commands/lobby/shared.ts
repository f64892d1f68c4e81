// What the lobby verbs share: the seat and lobby arguments, and how a lobby reads for people.
import type { Lobby } from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

import { checkId } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import type { IOStreams } from "../../io.ts";
import { leaguePlayerIdOf } from "../../names/resolve.ts";
import { shortTime, writeFields, writeJson, writeTable } from "../../output.ts";

export type SeatInput =
  | { kind: "human"; user_id: string }
  | { kind: "league_player"; player_id: string }
  | { kind: "human_open" | "random" | "closed" };

export const SEAT_KINDS = "human:USER_ID, human_open, league_player:PLAYER, random or closed";

/**
 * `human:user_…`, `human_open`, `league_player:PLAYER` (a name or ply_… id, looked up among the
 * league's champions), `random` or `closed`.
 */
export async function parseSeat(
  text: string,
  client: Gauntlet,
  leagueId: () => Promise<string>,
): Promise<SeatInput> {
  const [kind, ref, ...rest] = text.split(":");
  if (rest.length === 0 && kind === "human" && ref)
    return { kind, user_id: await checkId("user", ref, "--seat human:USER") };
  if (rest.length === 0 && kind === "league_player" && ref)
    return {
      kind,
      player_id: await leaguePlayerIdOf(client, await leagueId(), ref, "--seat league_player"),
    };
  if (ref === undefined && (kind === "human_open" || kind === "random" || kind === "closed"))
    return { kind };
  throw new CliError(`--seat: expected ${SEAT_KINDS}, got '${text}'`, EXIT.usage);
}

export const lobbyArg = (id: string) => checkId("lobby", id, "LOBBY");

export function seatArg(seat: string): number {
  const position = Number(seat);
  if (!/^\d+$/.test(seat) || position > 31)
    throw new CliError(`SEAT: expected a whole number from 0 to 31, got '${seat}'`, EXIT.usage);
  return position;
}

/** Every lobby verb answers with the lobby: the API's JSON, or its fields and seats. */
export function writeLobby(io: IOStreams, lobby: Lobby, json: boolean): void {
  if (json) return writeJson(io, lobby);
  writeFields(io, [
    ["id", lobby.id],
    ["league", lobby.league_id],
    ["status", lobby.status],
    ["episode", lobby.episode_request_id],
    ["live game", lobby.play_session_id],
    ["created", shortTime(lobby.created_at)],
    ["ended", shortTime(lobby.ended_at)],
    ["error", lobby.error],
  ]);
  writeTable(
    io,
    ["seat", "kind", "user", "player", "policy version"],
    lobby.seats.map((s) => [s.position, s.kind, s.user_id, s.player_id, s.policy_version_id]),
  );
}
