// Every message of a built-in commissioner's sessions, both ways, on a diagnostics channel: it
// costs nothing unless somebody listens (the protocol tests do, to check each message against
// the contract and upstream's models wherever the session was started from).
import { channel } from "node:diagnostics_channel";

/** Sees every message of a built-in session, both ways (protocol tests). */
export type BuiltinTap = (direction: "sent" | "received", message: object) => void;

export interface BuiltinMessage {
  direction: "sent" | "received";
  message: object;
}

export const builtinMessages = channel("gauntlet:commissioner:builtin");

/** The tap a session uses: the caller's own, and the channel when it has listeners. */
export function sessionTap(tap: BuiltinTap | undefined): BuiltinTap {
  return (direction, message) => {
    tap?.(direction, message);
    if (builtinMessages.hasSubscribers)
      builtinMessages.publish({ direction, message } satisfies BuiltinMessage);
  };
}
