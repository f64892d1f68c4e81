// The commissioner protocol's bounds and defaults, as Metta-AI/coworld's commissioner/protocol.py
// and COMMISSIONER.md set them: a platform and a commissioner written against the hosted service
// agree on them without asking.

/** The opaque state a round_complete may hand back for the next round_start (JSON, UTF-8 bytes). */
export const COMMISSIONER_STATE_MAX_BYTES = 10 * 1024 * 1024;
/** One protocol message (one WebSocket text frame), state and rankings included. */
export const COMMISSIONER_MESSAGE_MAX_BYTES = 16 * 1024 * 1024;
/** How long the platform waits for /healthz before it fails the session. */
export const COMMISSIONER_STARTUP_TIMEOUT_MS = 30_000;
/** How long a commissioner may stay silent (or leave a ping unanswered) before it is judged hung. */
export const COMMISSIONER_IDLE_TIMEOUT_MS = 30_000;
/** A commissioner session's whole life, at most. */
export const COMMISSIONER_MAX_LIFETIME_MS = 10 * 60_000;

export const MEMBERSHIP_STATUS_COMPETING = "competing";
export const MEMBERSHIP_SUBSTATUS_ACTIVE = "active";
export const MEMBERSHIP_SUBSTATUS_BENCHED = "benched";

/** The serialised size of a JSON value in bytes, as the limits above count it. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value === undefined ? null : value)).byteLength;
}
