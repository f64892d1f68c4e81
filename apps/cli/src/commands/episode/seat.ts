// The seat `--seat` names in an episode (exit 2 when malformed, 3 when the episode has no such seat).
import type { Gauntlet } from "@gauntlet/sdk";

import { CliError, EXIT } from "../../exit-codes.ts";

export function parseSeat(text: string): number {
  const seat = Number(text);
  if (!Number.isInteger(seat) || seat < 0)
    throw new CliError(`--seat: expected 0 or a positive whole number, got '${text}'`, EXIT.usage);
  return seat;
}

export async function seatOf(client: Gauntlet, episode_request_id: string, seat: number) {
  const seats = await client.episodeRequests.listPolicyArtifacts({ episode_request_id });
  const chosen = seats.find((s) => s.position === seat);
  if (!chosen)
    throw new CliError(
      `--seat: episode ${episode_request_id} has seats ${seats.map((s) => s.position).join(", ") || "none"}`,
      EXIT.notFound,
    );
  return chosen;
}
