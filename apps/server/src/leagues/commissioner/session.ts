// One conversation with a commissioner over a channel, typed: what the platform sends is built
// to the protocol's schemas (and checked against them, so a drift fails here, not in a
// commissioner), and what comes back must be one of the messages the protocol allows at that
// point; anything else ends the session as malformed.
import {
  COMMISSIONER_MESSAGE_MAX_BYTES,
  CommissionerToPlatform,
  jsonBytes,
  PlatformToCommissioner,
  settled,
} from "@gauntlet/core";

import { CommissionerFailure, type CommissionerChannel } from "./channel.ts";

type Outgoing = PlatformToCommissioner;
type Incoming = CommissionerToPlatform;

/** Sees every message the platform sends (tests capture them to check against upstream's models). */
export type SentTap = (message: Outgoing) => void;

export class CommissionerSession {
  readonly #channel: CommissionerChannel;
  readonly #tap: SentTap | undefined;
  #pending: Promise<unknown> | null = null;

  constructor(channel: CommissionerChannel, tap?: SentTap) {
    this.#channel = channel;
    this.#tap = tap;
  }

  async send(message: Outgoing): Promise<void> {
    const checked = PlatformToCommissioner.parse(message);
    this.#tap?.(checked);
    await this.#channel.send(checked);
  }

  /**
   * The next message, if one arrives within `waitMs`; null when none did yet. The read stays
   * pending across calls (a channel read is never abandoned), bounded by `deadlineMs` overall.
   */
  async poll<T extends Incoming["type"]>(
    allowed: readonly T[],
    waitMs: number,
    deadlineMs: number,
  ): Promise<Extract<Incoming, { type: T }> | null> {
    if (this.#pending === null) {
      this.#pending = this.#channel.next(Math.max(1, deadlineMs));
      // Read (and its failure thrown) by a later poll; until then a rejection is not "unhandled".
      void settled(this.#pending);
    }
    const pending = this.#pending;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<"idle">((resolve) => {
      timer = setTimeout(() => resolve("idle"), waitMs);
    });
    try {
      const raw = await Promise.race([pending, idle]);
      if (raw === "idle") return null;
      this.#pending = null;
      return check(raw, allowed);
    } catch (error) {
      this.#pending = null;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The next message, which must arrive within `timeoutMs`. */
  async expect<T extends Incoming["type"]>(
    allowed: readonly T[],
    timeoutMs: number,
  ): Promise<Extract<Incoming, { type: T }>> {
    const message = await this.poll(allowed, timeoutMs, timeoutMs);
    if (message === null)
      throw new CommissionerFailure("timeout", `no ${allowed.join(" or ")} within ${timeoutMs} ms`);
    return message;
  }

  log(): Promise<string> {
    return this.#channel.log();
  }

  close(reason: string): Promise<void> {
    return this.#channel.close(reason);
  }
}

function check<T extends Incoming["type"]>(
  raw: unknown,
  allowed: readonly T[],
): Extract<Incoming, { type: T }> {
  if (jsonBytes(raw) > COMMISSIONER_MESSAGE_MAX_BYTES)
    throw new CommissionerFailure("oversized", "a message past the protocol's 16 MiB");
  const parsed = CommissionerToPlatform.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join(".") || "message"}: ${issue.message}` : "invalid";
    throw new CommissionerFailure("malformed", `a message the protocol does not allow (${where})`);
  }
  const message = parsed.data;
  if (!(allowed as readonly string[]).includes(message.type))
    throw new CommissionerFailure(
      "malformed",
      `${message.type} where the protocol expects ${allowed.join(" or ")}`,
    );
  return message as Extract<Incoming, { type: T }>;
}
