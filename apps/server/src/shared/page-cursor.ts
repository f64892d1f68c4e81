// The opaque `next_cursor` of a listing ordered by (key desc, id desc): the last row's key and id.
import { invalidInput } from "./errors.ts";

export type CursorKey = string | number;

export function encodeCursor(key: CursorKey, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString("base64url");
}

/** The key and id of a cursor whose key has the given type; anything else is a 422 on `cursor`. */
export function decodeCursor(
  cursor: string,
  keyType: "string" | "number",
  hint = "not a next_cursor of this listing",
): [CursorKey, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[1] === "string") {
      const [key, id] = parsed as [unknown, string];
      if (typeof key === keyType) return [key as CursorKey, id];
    }
  } catch {
    // falls through to the 422 below
  }
  throw invalidInput(["query", "cursor"], hint, "value_error", cursor);
}
