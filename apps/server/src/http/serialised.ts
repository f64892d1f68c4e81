// Responses that many requests share (a division's standings, kept by a per-server cache until
// an event changes them) are serialised once, not per request: their holder marks them with
// `shareSerialised`, and the reply sends the bytes kept for that very object.
const kept = new WeakMap<object, string | null>();

/** Marks a value that is never mutated and is sent as a whole response many times. */
export function shareSerialised<T extends object>(value: T): T {
  kept.set(value, null);
  return value;
}

/** The JSON of a marked value (serialised on its first reply), or undefined for any other value. */
export function sharedSerialisation(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !kept.has(value)) return undefined;
  let json = kept.get(value);
  if (json === null || json === undefined) {
    json = JSON.stringify(value);
    kept.set(value, json);
  }
  return json;
}
