// Text from the server is a rival's (a league's name, a player's, a commissioner's description).
// On a terminal, control characters in it could rewrite or hide lines, set the title or write the
// clipboard (OSC 52), and bidirectional overrides could make a name read as another. The CLI and
// the terminal UI show such characters as visible escapes instead.

// C0 but tab and newline, DEL, C1, and the bidirectional marks and overrides.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character shown as a visible escape (`\x1b`, `\u202e`). */
export function visible(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** `value` (parsed JSON) with `visible` applied to every string in it, keys included. */
export function visibleDeep<T>(value: T): T {
  return deep(value) as T;
}

function deep(value: unknown): unknown {
  if (typeof value === "string") return visible(value);
  if (Array.isArray(value)) return value.map(deep);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[visible(k)] = deep(v);
    return out;
  }
  return value;
}
