// What beats what: for each ordered pair of a division's ranked players, how often the first
// finished ahead of, behind or level with the second in the episodes they shared. Filler seats
// and players no longer ranked are left out; a player in two seats of one episode counts once.
import type { DivisionPairwise } from "@gauntlet/core";

import { contestants, type SettledEpisode } from "../rules/ratings/contestants.ts";

export function pairwise(
  divisionId: string,
  players: readonly { player_id: string; player_name: string }[],
  episodes: readonly SettledEpisode[],
): DivisionPairwise {
  const ranked = new Set(players.map((p) => p.player_id));
  const tally = new Map<string, { wins: number; losses: number; draws: number }>();
  const cell = (a: string, b: string) => {
    const key = `${a}\u0000${b}`;
    let t = tally.get(key);
    if (!t) {
      t = { wins: 0, losses: 0, draws: 0 };
      tally.set(key, t);
    }
    return t;
  };
  let counted = 0;
  for (const episode of episodes) {
    const seated = contestants(episode.participants).filter(
      (c) => !c.anchor && ranked.has(c.subjectId),
    );
    if (seated.length < 2) continue;
    counted += 1;
    for (const a of seated)
      for (const b of seated) {
        if (a.subjectId === b.subjectId) continue;
        const t = cell(a.subjectId, b.subjectId);
        if (a.score > b.score) t.wins += 1;
        else if (a.score < b.score) t.losses += 1;
        else t.draws += 1;
      }
  }
  const cells = [];
  for (const a of players)
    for (const b of players) {
      const t = tally.get(`${a.player_id}\u0000${b.player_id}`);
      if (!t) continue;
      const n = t.wins + t.losses + t.draws;
      cells.push({
        player_id: a.player_id,
        opponent_id: b.player_id,
        ...t,
        episodes: n,
        win_rate: n ? (t.wins + t.draws / 2) / n : null,
      });
    }
  return {
    division_id: divisionId,
    players: players.map((p) => ({ player_id: p.player_id, player_name: p.player_name })),
    cells,
    episodes: counted,
  };
}
