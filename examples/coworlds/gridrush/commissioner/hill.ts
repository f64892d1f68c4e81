// One round of king of the hill. The king (from the last round's state; else the hill's best of
// the last round, else its first contender) meets every challenger in turn, one duel at a time:
// a challenger that scores more than the king takes the crown and meets the next challenger; a
// tie keeps the king. A failed duel is played once more with a new seed; a duel that fails twice,
// or that the platform refuses, is unplayed and the king keeps the crown. The ranking puts the
// king first, then the others by duels won, then those who played before those whose duel went
// unplayed (what is known before what is not), then by coin margin; the state carries the crown.
import { contenders, hillDivision } from "./league.ts";
import type { Membership, PlatformMessage, Score, Variant } from "./messages.ts";
import { readState, type Crown, type HillState } from "./state.ts";

type RoundStart = Extract<PlatformMessage, { type: "round_start" }>;

const MAX_SEED = 2 ** 31 - 1;
const PREFERRED_VARIANT = "duel-small";

interface Duel {
  index: number;
  king: Membership;
  challenger: Membership;
  attempt: number;
  requestId: string;
  outcome: "won" | "lost" | "unplayed" | null;
  scores: { king: number; challenger: number } | null;
  note: string | null;
}

interface Tally {
  member: Membership;
  wins: number;
  margin: number;
  played: number;
  unplayed: number;
}

/** A seed from the round, the duel and the attempt: a retry gets a new one, a rerun the same. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const c of text) hash = Math.imul(hash ^ (c.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash % MAX_SEED;
}

export class HillRound {
  readonly #start: RoundStart;
  readonly #log: (line: string) => void;
  readonly #state: HillState;
  readonly #variant: Variant | null;
  readonly #hillId: string | null;
  readonly #entrants: Membership[];
  readonly #queue: Membership[];
  readonly #previous: Crown | null;
  readonly #duels: Duel[] = [];
  #king: Membership | null;

  constructor(start: RoundStart, log: (line: string) => void) {
    this.#start = start;
    this.#log = log;
    const { state, ignored } = readState(start.state);
    if (ignored) log(`round ${start.round_number}: ignoring ${ignored}`);
    this.#state = state;
    this.#variant =
      start.variants.find((v) => v.id === PREFERRED_VARIANT) ?? start.variants[0] ?? null;
    const hill = hillDivision(start.divisions);
    this.#hillId = hill?.id ?? null;
    this.#entrants = hill ? this.#ordered(contenders(start.memberships, hill)) : [];
    this.#previous = hill ? (state.hills[hill.id] ?? null) : null;
    this.#king = this.#crowned();
    this.#queue = this.#entrants.filter((m) => m !== this.#king);
  }

  /** The first messages of the round: the first duel, or the round's end when there is none. */
  begin(): object[] {
    if (this.#hillId === null) this.#log("no hill division in round_start; the round ranks nobody");
    else if (this.#variant === null)
      this.#log("round_start names no variant; no duel can be played");
    else
      this.#log(
        `round ${this.#start.round_number}: king ${this.#king?.policy_version_id ?? "none"} (reign ${this.#previous?.reign ?? 0}), ${this.#queue.length} challenger(s)`,
      );
    return this.#next();
  }

  rejected(ids: readonly string[], errors: Readonly<Record<string, string>>): object[] {
    const duel = this.#current();
    if (!duel || !ids.includes(duel.requestId)) return [];
    return this.#settle(
      duel,
      "unplayed",
      null,
      `refused by the platform: ${errors[duel.requestId] ?? "no reason"}`,
    );
  }

  failed(requestId: string, error: string): object[] {
    const duel = this.#current();
    if (!duel || duel.requestId !== requestId) {
      this.#log(`episode_failed for ${requestId}, which is not the duel in play; ignored`);
      return [];
    }
    if (duel.attempt === 1) {
      this.#log(`duel ${duel.index + 1} failed (${error}); playing it again with a new seed`);
      duel.attempt = 2;
      return [this.#schedule(duel)];
    }
    return this.#settle(duel, "unplayed", null, `failed twice: ${error}`);
  }

  result(requestId: string, scores: readonly Score[]): object[] {
    const duel = this.#current();
    if (!duel || duel.requestId !== requestId) {
      this.#log(`episode_result for ${requestId}, which is not the duel in play; ignored`);
      return [];
    }
    const of = (m: Membership) => scores.find((s) => s.policy_version_id === m.policy_version_id);
    const king = of(duel.king);
    const challenger = of(duel.challenger);
    if (!king || !challenger) return this.failed(requestId, "the result lacks a duellist's score");
    const outcome = challenger.score > king.score ? "won" : "lost";
    return this.#settle(duel, outcome, { king: king.score, challenger: challenger.score }, null);
  }

  #ordered(entrants: Membership[]): Membership[] {
    const last = Math.max(
      -1,
      ...this.#start.recent_results
        .filter((r) => r.division_id === this.#hillId)
        .map((r) => r.round_number),
    );
    const rank = new Map(
      this.#start.recent_results
        .filter((r) => r.division_id === this.#hillId && r.round_number === last)
        .map((r) => [r.policy_version_id, r.rank]),
    );
    const at = (m: Membership) => rank.get(m.policy_version_id) ?? Number.MAX_SAFE_INTEGER;
    return entrants
      .map((m, i) => ({ m, i }))
      .sort((a, b) => at(a.m) - at(b.m) || a.i - b.i)
      .map(({ m }) => m);
  }

  /** The king at the start: the last round's, or its player's newer version; else the first. */
  #crowned(): Membership | null {
    const held = this.#previous;
    const keeps =
      held &&
      (this.#entrants.find((m) => m.policy_version_id === held.policy_version_id) ??
        this.#entrants.find((m) => held.player_id !== null && m.player_id === held.player_id));
    return keeps || (this.#entrants[0] ?? null);
  }

  #current(): Duel | null {
    const duel = this.#duels.at(-1);
    return duel && duel.outcome === null ? duel : null;
  }

  #next(): object[] {
    const challenger = this.#queue[this.#duels.length];
    if (!this.#king || !challenger || !this.#variant) return [this.#complete()];
    const index = this.#duels.length;
    const duel: Duel = {
      index,
      king: this.#king,
      challenger,
      attempt: 1,
      requestId: "",
      outcome: null,
      scores: null,
      note: null,
    };
    this.#duels.push(duel);
    return [this.#schedule(duel)];
  }

  #schedule(duel: Duel): object {
    duel.requestId = `hill-r${this.#start.round_number}-d${duel.index + 1}-a${duel.attempt}`;
    // Seats alternate so that neither side always starts in the same corner.
    const seats =
      duel.index % 2 === 0 ? [duel.king, duel.challenger] : [duel.challenger, duel.king];
    return {
      type: "schedule_episodes",
      episodes: [
        {
          request_id: duel.requestId,
          variant_id: this.#variant?.id ?? "",
          policy_version_ids: seats.map((m) => m.policy_version_id),
          seed: seedOf(`${this.#start.round_id}/${duel.index}/${duel.attempt}`),
          tags: {
            commissioner: "king-of-the-hill",
            duel: String(duel.index + 1),
            attempt: String(duel.attempt),
            king_seat: String(seats.indexOf(duel.king)),
          },
          game_config_overrides: {},
        },
      ],
    };
  }

  #settle(
    duel: Duel,
    outcome: "won" | "lost" | "unplayed",
    scores: Duel["scores"],
    note: string | null,
  ): object[] {
    duel.outcome = outcome;
    duel.scores = scores;
    duel.note = note;
    const said = scores ? ` ${scores.challenger}-${scores.king}` : "";
    this.#log(
      `duel ${duel.index + 1}: challenger ${duel.challenger.policy_version_id} ${outcome}${said}${note ? ` (${note})` : ""}`,
    );
    if (outcome === "won") this.#king = duel.challenger;
    return this.#next();
  }

  #tallies(): Tally[] {
    const tallies = new Map(
      this.#entrants.map((m) => [
        m.policy_version_id,
        { member: m, wins: 0, margin: 0, played: 0, unplayed: 0 },
      ]),
    );
    for (const d of this.#duels) {
      const king = tallies.get(d.king.policy_version_id);
      const challenger = tallies.get(d.challenger.policy_version_id);
      if (!king || !challenger) continue;
      if (d.outcome === "unplayed" || !d.scores) {
        king.unplayed += 1;
        challenger.unplayed += 1;
        continue;
      }
      king.played += 1;
      challenger.played += 1;
      king.margin += d.scores.king - d.scores.challenger;
      challenger.margin += d.scores.challenger - d.scores.king;
      (d.outcome === "won" ? challenger : king).wins += 1;
    }
    return [...tallies.values()];
  }

  #complete(): object {
    const king = this.#king;
    const hillId = this.#hillId;
    const state: HillState = { ...this.#state, hills: { ...this.#state.hills } };
    const results: object[] = [];
    const events: object[] = [];
    let display: Record<string, unknown> = { rule: "king-of-the-hill", king: null };
    if (king && hillId !== null) {
      const crown = this.#crownAfter(king);
      state.hills[hillId] = crown;
      const others = this.#tallies()
        .filter((t) => t.member !== king)
        .sort((a, b) => b.wins - a.wins || b.played - a.played || b.margin - a.margin);
      const kingTally = this.#tallies().find((t) => t.member === king);
      const ranked = kingTally ? [kingTally, ...others] : others;
      results.push({
        division_id: hillId,
        rankings: ranked.map((t, i) => ({
          policy_version_id: t.member.policy_version_id,
          player_id: t.member.player_id,
          rank: i + 1,
          score: t.wins,
          result_metadata: {
            role: this.#role(t.member, king),
            duels_won: t.wins,
            coin_margin: t.margin,
            duels_played: t.played,
            duels_unplayed: t.unplayed,
            ...(t.member === king ? { reign: crown.reign } : {}),
          },
        })),
      });
      display = {
        rule: "king-of-the-hill",
        king: king.policy_version_id,
        reign: crown.reign,
        crown_changes: crown.crown_changes,
        duels: this.#duels.map((d) => ({
          duel: d.index + 1,
          king: d.king.policy_version_id,
          challenger: d.challenger.policy_version_id,
          outcome: d.outcome,
          attempts: d.attempt,
          scores: d.scores,
          note: d.note,
        })),
      };
      events.push(...this.#substatusEvents(hillId));
      this.#log(
        `round ${this.#start.round_number} complete: king ${king.policy_version_id}, reign ${crown.reign}`,
      );
    }
    return {
      type: "round_complete",
      results,
      policy_membership_events: events,
      round_display: display,
      state,
    };
  }

  /** The crown at the end: a king who held it (or whose player did) extends the reign. */
  #crownAfter(king: Membership): Crown {
    const held = this.#previous;
    const captures = this.#duels.filter((d) => d.outcome === "won").length;
    const kept =
      held !== null &&
      (held.policy_version_id === king.policy_version_id ||
        (held.player_id !== null && held.player_id === king.player_id));
    return {
      policy_version_id: king.policy_version_id,
      player_id: king.player_id,
      reign: kept ? held.reign + 1 : 1,
      crowned_in_round: kept ? held.crowned_in_round : this.#start.round_number,
      crown_changes: (held?.crown_changes ?? 0) + captures,
    };
  }

  #role(member: Membership, king: Membership): "king" | "dethroned" | "challenger" {
    if (member === king) return "king";
    return this.#duels.some((d) => d.king === member && d.outcome === "won")
      ? "dethroned"
      : "challenger";
  }

  /** Contenders play ("active"); a player's older competing versions sit out ("benched"). */
  #substatusEvents(hillId: string): object[] {
    return this.#start.memberships
      .filter((m) => m.division_id === hillId && m.status === "competing")
      .map((m) => ({ m, want: this.#entrants.includes(m) ? "active" : "benched" }))
      .filter(({ m, want }) => m.substatus !== want)
      .map(({ m, want }) => ({
        league_policy_membership_id: m.id,
        from_division_id: hillId,
        to_division_id: hillId,
        status: "competing",
        substatus: want,
        reason: want === "active" ? "contends for the hill" : "an older version of a contender",
      }));
  }
}
