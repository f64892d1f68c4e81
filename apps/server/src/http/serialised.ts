// Responses that many requests share (a division's standings, kept by a per-server cache until
// an event changes them) are serialised once, not per request: their holder marks them with
// `shareSerialised`, and the reply sends the bytes kept for that very object. Kept as bytes, not
// a string: node writes a string body by measuring and re-encoding it on every reply.
const kept = new WeakMap<object, Buffer | null>();

/** Marks a value that is never mutated and is sent as a whole response many times. */
export function shareSerialised<T extends object>(value: T): T {
  kept.set(value, null);
  return value;
}

/** The JSON of a marked value (serialised on its first reply), or undefined for any other value. */
export function sharedSerialisation(value: unknown): Buffer | undefined {
  if (typeof value !== "object" || value === null || !kept.has(value)) return undefined;
  let json = kept.get(value);
  if (json === null || json === undefined) {
    json = Buffer.from(JSON.stringify(value));
    kept.set(value, json);
  }
  return json;
}
