// The seam between the league driver and a commissioner, wherever it runs: the built-in
// commissioners answer in this process, a coworld's own commissioner answers from a runner's
// sandbox over the WebSocket protocol of COMMISSIONER.md. The driver speaks messages; a channel
// carries them. A channel deals in parsed JSON only: the driver validates what it receives against
// the protocol's schemas (@gauntlet/core), so no transport trusts a commissioner's shapes.

/** Why a commissioner session ended without an answer; the round's failure reason says which. */
export type CommissionerFailureKind =
  | "startup_timeout" // /healthz never answered 200 in time, or no runner took the session
  | "crashed" // the process exited
  | "disconnected" // the socket closed before the protocol ended
  | "timeout" // no message (or no pong) within the allowed time
  | "oversized" // a message past COMMISSIONER_MESSAGE_MAX_BYTES
  | "malformed" // not JSON, or not a message the protocol allows at this point
  | "refused"; // the commissioner cannot be started (unknown runnable, no runtime for it)

export class CommissionerFailure extends Error {
  readonly kind: CommissionerFailureKind;
  constructor(kind: CommissionerFailureKind, message: string) {
    super(message);
    this.name = "CommissionerFailure";
    this.kind = kind;
  }
}

/** One open conversation with one commissioner process (or built-in instance). */
export interface CommissionerChannel {
  /** Sends one message (serialised as one JSON text frame). */
  send(message: object): Promise<void>;
  /**
   * The next message as parsed JSON, not yet validated. Rejects with a CommissionerFailure when
   * the session ends, nothing arrives within `timeoutMs`, or the frame is oversized or not JSON.
   */
  next(timeoutMs: number): Promise<unknown>;
  /** Ends the session and stops the commissioner; idempotent. */
  close(reason: string): Promise<void>;
  /** What the commissioner printed so far, capped (empty for built-ins). */
  log(): Promise<string>;
}

/** What to start: the league, and the coworld version's commissioner runnable. */
export interface CommissionerTarget {
  leagueId: string;
  coworldId: string;
  /** The manifest's `commissioner[].id` (the league's `commissioner_config.commissioner_runnable_id`). */
  runnableId: string;
  /** What the session is for, for logs and the runner's job listing. */
  purpose: "schedule" | "migration" | "round";
  /** The round a `round` session runs. */
  roundId?: string;
}

/** Starts commissioners: built-in ones in process, a coworld's own on a runner. */
export interface CommissionerLauncher {
  open(target: CommissionerTarget, signal: AbortSignal): Promise<CommissionerChannel>;
}
