// JSON.stringify answers undefined for undefined and functions, whatever its declared type says.
const stringify = (value: unknown): string | undefined => JSON.stringify(value);

/** JSON text of a value, "" where there is none. */
export function jsonText(value: unknown): string {
  return stringify(value) ?? "";
}
