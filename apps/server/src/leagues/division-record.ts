// A division's record as the certainty figures read it: its completed round episodes, each
// seat as the policy version that played it. A player's past champions are subjects of their
// own, so a new champion starts with no evidence while its predecessor's games still inform
// about everyone else. Failed, cancelled and voided episodes are no evidence about anyone.
// A round a coworld's commissioner ranked is one game of the record instead, its placings the
// commissioner's ranks: the standings then follow the commissioner, as its ratings do, not the
// episodes' own scores (which it may have read some other way).
import type { Kysely, Transaction } from "kysely";

import { parseJson } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import type { SettledEpisode } from "./rules/index.ts";

/** Newest episodes fitted; older evidence stops counting past this (bounds a settle's cost). */
export const RECORD_LIMIT = 5_000;

/** The record's subject for a seat: a player's policy version, or a filler version. */
export function recordSubject(playerId: string | null, policyVersionId: string | null): string {
  return playerId !== null
    ? `${playerId}:${policyVersionId ?? "unknown"}`
    : `filler:${policyVersionId ?? "unknown"}`;
}

export async function divisionRecord(
  db: Kysely<Database> | Transaction<Database>,
  divisionId: string,
): Promise<SettledEpisode[]> {
  const rows = await db
    .selectFrom("episode_requests as e")
    .innerJoin("episode_participants as p", "p.episode_request_id", "e.id")
    .select([
      "e.id",
      "e.scores",
      "e.updated_at",
      "p.position",
      "p.player_id",
      "p.policy_version_id",
    ])
    .where("e.id", "in", (qb) =>
      qb
        .selectFrom("rounds as r")
        .innerJoin("episode_requests as re", "re.round_id", "r.id")
        .select("re.id")
        .where("r.division_id", "=", divisionId)
        .where("r.commissioner_runnable_id", "is", null)
        .where("re.status", "=", "completed")
        // A voided episode is no evidence either (ledger/).
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("episode_voids as v")
                .select("v.episode_request_id")
                .whereRef("v.episode_request_id", "=", "re.id"),
            ),
          ),
        )
        .orderBy("re.updated_at", "desc")
        .orderBy("re.id", "desc")
        .limit(RECORD_LIMIT),
    )
    .orderBy("e.updated_at")
    .orderBy("e.id")
    .orderBy("p.position")
    .execute();
  const episodes = new Map<string, { at: Date; scores: number[]; seats: typeof rows }>();
  for (const row of rows) {
    let episode = episodes.get(row.id);
    if (!episode) {
      episode = {
        at: new Date(row.updated_at),
        scores: parseJson<number[]>(row.scores),
        seats: [],
      };
      episodes.set(row.id, episode);
    }
    episode.seats.push(row);
  }
  const played: SettledEpisode[] = [...episodes.values()].map((e) => ({
    at: e.at,
    participants: e.seats.map((s) => ({
      subjectId: recordSubject(s.player_id, s.policy_version_id),
      score: e.scores[s.position] ?? 0,
    })),
  }));
  const ranked = await commissionerRankings(db, divisionId);
  return ranked.length === 0
    ? played
    : [...played, ...ranked].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The division's rounds ranked by a coworld's commissioner, each as one game of placings. */
async function commissionerRankings(
  db: Kysely<Database> | Transaction<Database>,
  divisionId: string,
): Promise<SettledEpisode[]> {
  const rows = await db
    .selectFrom("round_results as rr")
    .innerJoin("rounds as r", "r.id", "rr.round_id")
    .select(["r.id", "r.completed_at", "rr.player_id", "rr.policy_version_id", "rr.rank"])
    .where("rr.division_id", "=", divisionId)
    .where("r.commissioner_runnable_id", "is not", null)
    .where("r.status", "=", "completed")
    .where("r.id", "in", (qb) =>
      qb
        .selectFrom("rounds as lr")
        .select("lr.id")
        .where("lr.division_id", "=", divisionId)
        .where("lr.commissioner_runnable_id", "is not", null)
        .where("lr.status", "=", "completed")
        .orderBy("lr.completed_at", "desc")
        .orderBy("lr.id", "desc")
        .limit(RECORD_LIMIT),
    )
    .orderBy("r.completed_at")
    .orderBy("r.id")
    .orderBy("rr.rank")
    .execute();
  const rounds = new Map<string, { at: Date; rows: typeof rows }>();
  for (const row of rows) {
    const round = rounds.get(row.id) ?? { at: new Date(row.completed_at ?? 0), rows: [] };
    round.rows.push(row);
    rounds.set(row.id, round);
  }
  return [...rounds.values()].map(({ at, rows: ranks }) => {
    const worst = Math.max(...ranks.map((r) => r.rank));
    return {
      at,
      participants: ranks.map((r) => ({
        subjectId: recordSubject(r.player_id, r.policy_version_id),
        // A better rank is a higher score, as the round's rating read it (round-record.ts).
        score: worst + 1 - r.rank,
      })),
    };
  });
}
