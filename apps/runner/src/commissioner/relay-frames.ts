// The relay's framing of a commissioner's messages (@gauntlet/core COMMISSIONER_RELAY_FRAME_BYTES):
// a message is cut into pieces of at most that many UTF-8 bytes, "+" before each but the last,
// "." before the last, so the server never takes a large frame from any socket.
import { COMMISSIONER_RELAY_FRAME_BYTES } from "@gauntlet/core";

/** A UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair 4 for 2 units): pieces stay within. */
const PIECE_UNITS = Math.floor((COMMISSIONER_RELAY_FRAME_BYTES - 1) / 3);

export function relayFrames(message: string): string[] {
  const frames: string[] = [];
  let at = 0;
  while (message.length - at > PIECE_UNITS) {
    let end = at + PIECE_UNITS;
    // Never between the two halves of a surrogate pair.
    const last = message.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    frames.push(`+${message.slice(at, end)}`);
    at = end;
  }
  frames.push(`.${message.slice(at)}`);
  return frames;
}
