// Bounds on what a request may make the server parse and what an error may echo back.
// A JSON body nested thousands of levels deep parses, but echoing it in a 422 overflowed the
// stack while serialising (a 500); both the parse and the echo are bounded here.

import { jsonText } from "../shared/json-text.ts";

/** Deepest nesting of arrays/objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64;
/** Largest body accepted (bytes); uploads of bundles and artifacts share it. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Longest `input` an error echoes (characters of its JSON); longer ones are cut. */
export const MAX_ECHO_CHARS = 1024;
const MAX_ECHO_DEPTH = 4;

/** The deepest nesting of `text` as JSON, counted without recursion (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93 /* } ] */) depth--;
  }
  return max;
}

/** Thrown by the body parser when a JSON body nests deeper than allowed. */
export class JsonTooDeepError extends Error {
  readonly depth: number;
  constructor(depth: number) {
    super(`The JSON body nests ${depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted.`);
    this.depth = depth;
  }
}

function shrink(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") {
    if (typeof value === "string" && value.length > MAX_ECHO_CHARS)
      return `${value.slice(0, MAX_ECHO_CHARS)}… (${value.length} characters)`;
    if (typeof value === "bigint") return String(value);
    return value;
  }
  if (depth >= MAX_ECHO_DEPTH) return Array.isArray(value) ? "[…]" : "{…}";
  if (Array.isArray(value)) {
    const head = value.slice(0, 20).map((v: unknown) => shrink(v, depth + 1));
    return value.length > 20 ? [...head, `… (${value.length} items)`] : head;
  }
  const entries = Object.entries(value)
    .slice(0, 20)
    .map(([k, v]) => [k.slice(0, 100), shrink(v, depth + 1)] as const);
  return Object.fromEntries(entries);
}

/**
 * What an error may echo of an input: the input itself when small, else a cut copy (a few
 * levels, a few items, short strings) whose JSON stays within MAX_ECHO_CHARS.
 */
export function boundedEcho(value: unknown): unknown {
  const cut = shrink(value, 0);
  const text = jsonText(cut);
  if (text.length <= MAX_ECHO_CHARS) return cut;
  return `${text.slice(0, MAX_ECHO_CHARS)}… (cut)`;
}
