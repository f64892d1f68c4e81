// One GridRush episode: seats the players, runs the turns, and reports the outcome. It waits
// for every slot to connect, then each turn sends every player its view and waits for all
// moves or the turn timeout, whichever comes first (a late player just stays put).
import { randomInt } from "node:crypto";

import type { GameConfig } from "./config.ts";
import { isMove, type EndMessage, type Move, type WelcomeMessage } from "./protocol.ts";
import { isOver, newGame, step, viewFor, winnerSlot, type GameState } from "./rules.ts";
import type { WebSocketConnection } from "./websocket.ts";

export interface Results {
  scores: number[];
  winner_slot: number | null;
  turns: number;
  seed: number;
}

export interface EpisodeOutputs {
  log(line: string): void;
  /** Called once, after the last player message: the replay (JSON lines) and either results or a failure. */
  finish(
    outcome:
      | { replay: string; results: Results }
      | { replay: string; failure: { message: string; failed_policy_index: number } },
  ): void;
}

export type SeatCheck = "ok" | "unknown_slot" | "wrong_token" | "taken";

export class Episode {
  private readonly config: GameConfig;
  private readonly outputs: EpisodeOutputs;
  private readonly state: GameState;
  private readonly seats: (WebSocketConnection | null)[];
  private readonly replay: string[] = [];
  private moves: (Move | null)[] = [];
  private turnDone: (() => void) | null = null;
  private started = false;
  private ended = false;
  private connectTimer: NodeJS.Timeout | null = null;

  constructor(config: GameConfig, outputs: EpisodeOutputs) {
    this.config = config;
    this.outputs = outputs;
    const seed = config.seed ?? randomInt(0, 2 ** 31);
    this.state = newGame({
      width: config.width,
      height: config.height,
      turns: config.turns,
      coins: config.coins,
      seed,
      players: config.tokens.length,
    });
    this.seats = config.tokens.map(() => null);
    this.record({
      type: "header",
      version: 1,
      width: config.width,
      height: config.height,
      turns: config.turns,
      coins: config.coins,
      seed,
      players: config.names,
    });
    this.record({
      type: "state",
      turn: 0,
      positions: this.state.positions,
      coins: this.state.coins,
      scores: this.state.scores,
    });
  }

  /** Starts the clock for the players to connect. */
  open(): void {
    this.connectTimer = setTimeout(() => {
      const missing = this.seats.findIndex((seat) => seat === null);
      this.abort(
        missing,
        `the player in slot ${missing} did not connect within ${this.config.connectTimeoutMs} ms`,
      );
    }, this.config.connectTimeoutMs);
  }

  check(slot: number, token: string): SeatCheck {
    const expected = this.config.tokens[slot];
    if (!Number.isInteger(slot) || expected === undefined) return "unknown_slot";
    if (token !== expected) return "wrong_token";
    return this.seats[slot] === null && !this.ended ? "ok" : "taken";
  }

  attach(slot: number, connection: WebSocketConnection): void {
    this.seats[slot] = connection;
    this.outputs.log(`slot ${slot} (${this.config.names[slot] ?? "?"}) connected`);
    connection.onMessage = (text) => this.receive(slot, text);
    connection.onClose = () => {
      if (!this.ended)
        this.abort(slot, `the player in slot ${slot} disconnected at turn ${this.state.turn}`);
    };
    const welcome: WelcomeMessage = {
      type: "welcome",
      slot,
      players: this.seats.length,
      width: this.config.width,
      height: this.config.height,
      turns: this.config.turns,
    };
    connection.send(JSON.stringify(welcome));
    if (!this.started && this.seats.every((seat) => seat !== null)) {
      this.started = true;
      if (this.connectTimer) clearTimeout(this.connectTimer);
      void this.run();
    }
  }

  private receive(slot: number, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== "object" || message === null) return;
    const { type, turn, move } = message as Record<string, unknown>;
    if (type !== "move" || turn !== this.state.turn || !isMove(move) || this.moves[slot] !== null)
      return;
    this.moves[slot] = move;
    if (this.moves.every((m) => m !== null)) this.turnDone?.();
  }

  private async run(): Promise<void> {
    this.outputs.log(
      `all ${this.seats.length} players connected; playing ${this.config.turns} turns`,
    );
    while (!isOver(this.state) && !this.ended) {
      this.moves = this.seats.map(() => null);
      this.seats.forEach((seat, slot) => seat?.send(JSON.stringify(viewFor(this.state, slot))));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.config.turnTimeoutMs);
        this.turnDone = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.turnDone = null;
      // end() may have run while this turn waited; the type checker cannot see that.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (this.ended) return;
      const turn = step(
        this.state,
        this.moves.map((m) => m ?? "stay"),
      );
      this.record({ type: "turn", ...turn });
    }
    const results: Results = {
      scores: [...this.state.scores],
      winner_slot: winnerSlot(this.state.scores),
      turns: this.state.turn,
      seed: this.state.settings.seed,
    };
    this.record({ type: "end", scores: results.scores, winner_slot: results.winner_slot });
    this.outputs.log(
      `finished: scores ${results.scores.join(" ")}, winner ${results.winner_slot ?? "none (tie)"}`,
    );
    this.end(
      { type: "end", reason: "finished", scores: results.scores, winner_slot: results.winner_slot },
      () => this.outputs.finish({ replay: this.replayText(), results }),
    );
  }

  private abort(slot: number, message: string): void {
    if (this.ended) return;
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.outputs.log(`aborted: ${message}`);
    this.record({ type: "aborted", turn: this.state.turn, failed_policy_index: slot, message });
    this.turnDone?.();
    this.end(
      { type: "end", reason: "aborted", scores: [...this.state.scores], winner_slot: null },
      () =>
        this.outputs.finish({
          replay: this.replayText(),
          failure: { message, failed_policy_index: slot },
        }),
    );
  }

  /** Tells the connected players the episode is over, closes their sockets, then reports. */
  private end(message: EndMessage, report: () => void): void {
    this.ended = true;
    const open = this.seats.filter((seat): seat is WebSocketConnection => seat !== null);
    let waiting = open.length;
    let reported = false;
    const once = () => {
      if (reported) return;
      reported = true;
      report();
    };
    if (waiting === 0) once();
    for (const seat of open) {
      seat.send(JSON.stringify(message));
      seat.close(1000, () => {
        waiting -= 1;
        if (waiting === 0) once();
      });
    }
    // A socket that will not flush must not hold the report back.
    setTimeout(once, 500).unref();
  }

  private record(entry: object): void {
    this.replay.push(JSON.stringify(entry));
  }

  private replayText(): string {
    return `${this.replay.join("\n")}\n`;
  }
}
