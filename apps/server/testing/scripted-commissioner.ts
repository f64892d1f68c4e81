// A coworld commissioner written against the hosted service's protocol, run in-process for the
// league driver's tests: it makes its divisions "Open" (renaming the league's first) and "Pro",
// plays every pair of the round's champions once, ranks them in REVERSE of their summed scores
// (a ranking no rating rule would give) and moves the winner of its ranking up to "Pro"; it asks
// for rounds until one has completed. `mode`
// makes it misbehave in one way, to show that only its round fails (or, silent, that a server
// stops without waiting out its replies).
import type {
  CommissionerLauncher,
  CommissionerTarget,
} from "../src/leagues/commissioner/channel.ts";
import {
  memoryChannel,
  type CommissionerProgram,
} from "../src/leagues/commissioner/memory-channel.ts";

export type ScriptedMode =
  | "fair"
  | "throws"
  | "hangs"
  | "garbage"
  | "oversized_state"
  | "unknown_version"
  /** Answers nothing at all, not even the migration or scheduling requests. */
  | "silent";

interface Membership {
  id: string;
  division_id: string;
  policy_version_id: string;
  player_id?: string | null;
  status: string;
  is_champion: boolean;
}

type Message = Record<string, unknown>;

export class ReverseCommissioner implements CommissionerProgram {
  readonly #mode: () => ScriptedMode;
  #memberships: Membership[] = [];
  #divisions: { id: string; name: string }[] = [];
  #state: { rounds: number } = { rounds: 0 };
  readonly #pending = new Set<string>();
  readonly #totals = new Map<string, number>();
  #scheduled = false;

  constructor(mode: () => ScriptedMode) {
    this.#mode = mode;
  }

  onMessage(message: Message, reply: (m: unknown) => void): void {
    const mode = this.#mode();
    if (mode === "silent") return;
    switch (message.type) {
      case "league_migration_config_request": {
        const divisions = message.divisions as { name: string; level: number }[];
        const first = divisions[0];
        reply({
          type: "league_migration_config_response",
          divisions: [
            { name: "Open", level: 2, type: "competition", previous_name: first?.name ?? null },
            {
              name: "Pro",
              level: 1,
              type: "competition",
              description: "where the reverse winner goes",
            },
          ],
        });
        return;
      }
      case "league_migration_request":
        reply({ type: "league_migration_response", policy_membership_events: [] });
        return;
      case "schedule_rounds_request": {
        const divisions = message.divisions as { id: string; name: string }[];
        const open = divisions.find((d) => d.name === "Open");
        const champions = (message.active_memberships as Membership[]).filter(
          (m) => m.division_id === open?.id && m.is_champion && m.status === "competing",
        );
        // One completed round is all it plays: the tests read a league that stays put after it.
        const done = (message.recent_rounds as { status: string }[]).some(
          (r) => r.status === "completed",
        );
        reply({
          type: "schedule_rounds_response",
          rounds:
            open && champions.length >= 2 && !done
              ? [
                  {
                    division_id: open.id,
                    round_config: {
                      stages: [{ label: "Round", num_episodes: 1 }],
                      entrant_policy_version_ids: champions.map((c) => c.policy_version_id),
                    },
                    notes: "reverse round",
                  },
                ]
              : [],
        });
        return;
      }
      case "round_start": {
        this.#memberships = message.memberships as Membership[];
        this.#divisions = message.divisions as { id: string; name: string }[];
        const previous = message.state as { rounds: number } | null;
        this.#state = { rounds: (previous?.rounds ?? 0) + 1 };
        if (mode === "throws") throw new Error("the scripted commissioner fell over");
        if (mode === "hangs") return;
        if (mode === "garbage") {
          reply({ type: "schedule_episodes", episodes: "all of them" });
          return;
        }
        const open = this.#divisions.find((d) => d.name === "Open");
        const players = this.#memberships.filter(
          (m) => m.division_id === open?.id && m.is_champion,
        );
        const variant = (message.variants as { id: string }[])[0]?.id ?? "";
        const episodes = [];
        for (let i = 0; i < players.length; i++)
          for (let j = i + 1; j < players.length; j++) {
            const a = players[i];
            const b = players[j];
            if (!a || !b) continue;
            episodes.push({
              request_id: `r${this.#state.rounds}-${i}-${j}`,
              variant_id: variant,
              policy_version_ids: [a.policy_version_id, b.policy_version_id],
              seed: 7,
              tags: { stage: "reverse", match: `${i}-${j}` },
              game_config_overrides: { turns: 5, width: 5, height: 5 },
            });
          }
        if (mode === "unknown_version")
          episodes.push({
            request_id: "ghost",
            variant_id: variant,
            policy_version_ids: [
              "00000000-0000-4000-8000-000000000000",
              players[0]?.policy_version_id,
            ],
            tags: {},
            game_config_overrides: {},
          });
        for (const e of episodes) this.#pending.add(e.request_id);
        this.#scheduled = true;
        reply({ type: "schedule_episodes", episodes });
        return;
      }
      case "episodes_rejected": {
        for (const id of message.request_ids as string[]) this.#pending.delete(id);
        if (mode === "unknown_version") {
          // Ranks the version it was refused anyway: the platform must not record it.
          reply({
            type: "round_complete",
            results: [
              {
                division_id: this.#divisions[0]?.id,
                rankings: [
                  { policy_version_id: "00000000-0000-4000-8000-000000000000", rank: 1, score: 1 },
                ],
              },
            ],
          });
        }
        return;
      }
      case "episode_result": {
        for (const s of message.scores as { policy_version_id: string; score: number }[])
          this.#totals.set(
            s.policy_version_id,
            (this.#totals.get(s.policy_version_id) ?? 0) + s.score,
          );
        this.#done(message.request_id as string, reply);
        return;
      }
      case "episode_failed":
        this.#done(message.request_id as string, reply);
        return;
      default:
        return;
    }
  }

  #done(requestId: string, reply: (m: unknown) => void): void {
    this.#pending.delete(requestId);
    if (!this.#scheduled || this.#pending.size > 0) return;
    const mode = this.#mode();
    // Lowest total first: the reverse of what any rating of the scores would say.
    const order = [...this.#totals.entries()].sort((a, b) => a[1] - b[1]);
    const open = this.#divisions.find((d) => d.name === "Open");
    const pro = this.#divisions.find((d) => d.name === "Pro");
    const winner = this.#memberships.find((m) => m.policy_version_id === order[0]?.[0]);
    reply({
      type: "round_complete",
      results: [
        {
          division_id: open?.id,
          rankings: order.map(([id, total], i) => ({
            policy_version_id: id,
            rank: i + 1,
            score: total,
          })),
        },
      ],
      policy_membership_events:
        winner && pro
          ? [
              {
                league_policy_membership_id: winner.id,
                from_division_id: winner.division_id,
                to_division_id: pro.id,
                status: "competing",
                reason: "won the reverse round",
              },
            ]
          : [],
      state:
        mode === "oversized_state"
          ? { rounds: this.#state.rounds, blob: "x".repeat(10 * 1024 * 1024 + 1) }
          : this.#state,
    });
  }
}

/**
 * A launcher whose every session is a fresh ReverseCommissioner; `mode` applies to new sessions
 * and live ones. `sent` keeps every message the platform sent, as it crossed the channel (tests
 * check them against upstream's own models).
 */
export function scriptedLauncher(): CommissionerLauncher & {
  mode: ScriptedMode;
  opened: CommissionerTarget[];
  sent: object[];
} {
  const launcher = {
    mode: "fair" as ScriptedMode,
    opened: [] as CommissionerTarget[],
    sent: [] as object[],
    open(target: CommissionerTarget) {
      launcher.opened.push(target);
      const channel = memoryChannel(new ReverseCommissioner(() => launcher.mode));
      return Promise.resolve({
        ...channel,
        send(message: object) {
          launcher.sent.push(message);
          return channel.send(message);
        },
      });
    },
  };
  return launcher;
}
