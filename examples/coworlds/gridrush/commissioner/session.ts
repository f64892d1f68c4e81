// One conversation on /round, in either of the protocol's two phases. League phase: each
// schedule_rounds_request, league_migration_config_request and league_migration_request gets its
// answer, until the platform closes the socket. Round phase: round_start opens it (as the
// session's first message), then episode outcomes drive the duels until round_complete, after
// which the session ends; round_abort ends it without one. A message that is not the protocol's,
// or not one the protocol allows at that point, ends the session with a log line saying why.
import { HillRound } from "./hill.ts";
import { migrationConfig, migrationEvents, scheduleRounds } from "./league.ts";
import { parsePlatformMessage, type PlatformMessage } from "./messages.ts";
import { ProtocolError } from "./read.ts";

export interface SessionIo {
  send(message: object): void;
  /** Ends the session: the socket's close code, and whether it ended as the protocol allows. */
  end(closeCode: number, ok: boolean): void;
  log(line: string): void;
}

export class Session {
  readonly #io: SessionIo;
  #round: HillRound | null = null;
  #answered = 0;
  #ended = false;

  constructor(io: SessionIo) {
    this.#io = io;
  }

  get ended(): boolean {
    return this.#ended;
  }

  receive(text: string): void {
    if (this.#ended) return;
    try {
      this.#handle(parsePlatformMessage(text));
    } catch (error) {
      if (error instanceof ProtocolError) {
        this.#io.log(`malformed message (${error.message}); ending the session`);
        this.#finish(1008, false);
      } else {
        this.#io.log(
          `internal error: ${error instanceof Error ? error.message : String(error)}; ending the session`,
        );
        this.#finish(1011, false);
      }
    }
  }

  #handle(message: PlatformMessage): void {
    const round = this.#round;
    if (round === null) {
      this.#league(message);
      return;
    }
    switch (message.type) {
      case "episodes_accepted":
        this.#io.log(`accepted: ${message.request_ids.join(", ")}`);
        return;
      case "episodes_rejected":
        this.#io.log(
          `rejected: ${message.request_ids.map((id) => `${id} (${message.errors[id] ?? "no reason"})`).join(", ")}`,
        );
        this.#sendAll(round.rejected(message.request_ids, message.errors));
        return;
      case "episode_result":
        this.#sendAll(round.result(message.request_id, message.scores));
        return;
      case "episode_failed":
        this.#sendAll(round.failed(message.request_id, message.error));
        return;
      case "round_abort":
        this.#io.log(`round aborted by the platform: ${message.reason}`);
        this.#finish(1000, true);
        return;
      default:
        throw new ProtocolError("message.type", `${message.type} during a round`);
    }
  }

  #league(message: PlatformMessage): void {
    switch (message.type) {
      case "schedule_rounds_request": {
        const { response, why } = scheduleRounds(
          message.divisions,
          message.active_memberships,
          message.recent_rounds,
        );
        this.#io.log(`schedule: ${why}`);
        this.#io.send(response);
        break;
      }
      case "league_migration_config_request":
        this.#io.send(migrationConfig(message.divisions));
        break;
      case "league_migration_request": {
        const response = migrationEvents(message.divisions, message.memberships);
        this.#io.log(
          `migration: ${response.policy_membership_events.length} membership(s) moved onto the hill`,
        );
        this.#io.send(response);
        break;
      }
      case "round_start": {
        if (this.#answered > 0)
          throw new ProtocolError(
            "message.type",
            "round_start after league messages in one session",
          );
        this.#round = new HillRound(message, (line) => this.#io.log(line));
        this.#sendAll(this.#round.begin());
        return;
      }
      default:
        throw new ProtocolError("message.type", `${message.type} before round_start`);
    }
    this.#answered += 1;
  }

  #sendAll(messages: readonly object[]): void {
    for (const m of messages) {
      this.#io.send(m);
      if ((m as { type?: unknown }).type === "round_complete") {
        this.#finish(1000, true);
        return;
      }
    }
  }

  #finish(closeCode: number, ok: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#io.end(closeCode, ok);
  }
}
