// Who played an episode, whose seats were the caller's, who won and why it failed: what
// `episode show`, `episode list` and an evaluation's end print for people.
import type { EpisodeRequest } from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

/** The caller's players and policies; null when the client has no signed-in user. */
export interface Mine {
  readonly players: ReadonlySet<string>;
  readonly policies: ReadonlySet<string>;
}

export async function mineOf(client: Gauntlet): Promise<Mine | null> {
  const me = await client.whoami();
  if (me.subject_type === "anonymous") return null;
  const [players, versions] = await Promise.all([
    client.players.list(),
    client.policyVersions.search({ mine: true, limit: 500 }),
  ]);
  return {
    players: new Set(players.map((p) => p.id)),
    policies: new Set(versions.entries.map((v) => v.policy_id)),
  };
}

type Participant = EpisodeRequest["participants"][number];

export function isMine(seat: Participant, mine: Mine | null): boolean {
  if (!mine) return false;
  return (
    (seat.player_id !== null && mine.players.has(seat.player_id)) ||
    (seat.policy_id !== null && mine.policies.has(seat.policy_id))
  );
}

/** "Ada (greedy v2)", or the policy alone when no player is named. */
export function seatName(seat: Participant): string {
  const policy = seat.version === null ? seat.policy_name : `${seat.policy_name} v${seat.version}`;
  return seat.player_name ? `${seat.player_name} (${policy})` : policy;
}

export function scoreOf(episode: EpisodeRequest, position: number): number | null {
  return episode.scores.find((s) => s.position === position)?.score ?? null;
}

/** The winning seats of a completed episode: the highest score; more than one is a draw. */
export function winnersOf(episode: EpisodeRequest): number[] {
  if (episode.status !== "completed" || episode.scores.length === 0) return [];
  const best = Math.max(...episode.scores.map((s) => s.score));
  return episode.scores.filter((s) => s.score === best).map((s) => s.position);
}

/** One line: who won, a draw, why it failed, or where it stands. */
export function outcomeOf(episode: EpisodeRequest): string {
  if (episode.status === "failed") {
    const blamed =
      episode.failed_policy_index === null
        ? ""
        : ` (seat ${episode.failed_policy_index}${nameAt(episode, episode.failed_policy_index)})`;
    return `failed: ${episode.error_type ?? "error"}${blamed}${episode.error ? `: ${episode.error}` : ""}`;
  }
  if (episode.status !== "completed") return episode.status;
  const winners = winnersOf(episode);
  if (winners.length === 0) return "completed, no scores";
  if (winners.length > 1 && winners.length === episode.scores.length) return "draw";
  if (winners.length > 1) return `draw between seats ${winners.join(", ")}`;
  const seat = winners[0] ?? 0;
  return `seat ${seat}${nameAt(episode, seat)} won`;
}

function nameAt(episode: EpisodeRequest, position: number): string {
  const seat = episode.participants.find((p) => p.position === position);
  return seat ? ` ${seatName(seat)}` : "";
}

/** The seats as table rows: seat (with * on the caller's), who, score, result. */
export function seatRows(episode: EpisodeRequest, mine: Mine | null): (string | number | null)[][] {
  const winners = new Set(winnersOf(episode));
  const draw = winners.size > 1;
  return [...episode.participants]
    .sort((a, b) => a.position - b.position)
    .map((seat) => [
      `${seat.position}${isMine(seat, mine) ? " *" : ""}`,
      seatName(seat),
      scoreOf(episode, seat.position),
      episode.status !== "completed"
        ? episode.failed_policy_index === seat.position
          ? "failed"
          : null
        : winners.has(seat.position)
          ? draw
            ? "draw"
            : "won"
          : "lost",
    ]);
}

/** The CPU seconds a seat used ("1.25 s"), by its row in seatRows' order; null where unknown. */
export function cpuOfSeat(episode: EpisodeRequest, row: number): string | null {
  const seat = [...episode.participants].sort((a, b) => a.position - b.position)[row];
  const seconds = seat === undefined ? null : (episode.cpu?.seats[seat.position] ?? null);
  return seconds === null ? null : `${seconds.toFixed(2)} s`;
}

/** "2 cores, 40% busy, load 0.80", and whether the runner was over-committed. */
export function runnerLoadOf(load: NonNullable<EpisodeRequest["cpu"]>["runner"]): string {
  const busy = `${load.cores} cores, ${Math.round(load.busy_fraction * 100)}% busy, load ${load.load_average.toFixed(2)}`;
  return load.over_committed ? `${busy}, over-committed` : busy;
}

/** Each seat's record over several episodes of one roster: wins, losses, draws, mean score. */
export interface SeatRecord {
  position: number;
  name: string;
  mine: boolean;
  wins: number;
  losses: number;
  draws: number;
  failures: number;
  meanScore: number | null;
}

export function recordBySeat(episodes: readonly EpisodeRequest[], mine: Mine | null): SeatRecord[] {
  const records = new Map<number, SeatRecord & { total: number; scored: number }>();
  for (const episode of episodes) {
    const winners = new Set(winnersOf(episode));
    for (const seat of episode.participants) {
      const r = records.get(seat.position) ?? {
        position: seat.position,
        name: seatName(seat),
        mine: isMine(seat, mine),
        wins: 0,
        losses: 0,
        draws: 0,
        failures: 0,
        meanScore: null,
        total: 0,
        scored: 0,
      };
      records.set(seat.position, r);
      // A --top or --random seat is drawn per episode: it has no one name.
      if (r.name !== seatName(seat)) r.name = "(drawn per episode)";
      if (isMine(seat, mine)) r.mine = true;
      if (episode.status === "failed" && episode.failed_policy_index === seat.position)
        r.failures += 1;
      if (episode.status !== "completed") continue;
      if (winners.has(seat.position)) {
        if (winners.size > 1) r.draws += 1;
        else r.wins += 1;
      } else r.losses += 1;
      const score = scoreOf(episode, seat.position);
      if (score !== null) {
        r.total += score;
        r.scored += 1;
      }
    }
  }
  return [...records.values()]
    .sort((a, b) => a.position - b.position)
    .map(({ total, scored, ...r }) => ({ ...r, meanScore: scored ? total / scored : null }));
}
