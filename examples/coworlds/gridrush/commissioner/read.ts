// Small readers for untrusted JSON: each returns the value with its static type or throws a
// ProtocolError naming where the message is wrong (`round_start.memberships[2].division_id`).
// The commissioner runs with nothing but Node, so these stand in for a schema library.

export class ProtocolError extends Error {
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = "ProtocolError";
  }
}

export type Json = Record<string, unknown>;

export function object(value: unknown, where: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ProtocolError(where, "must be an object");
  return value as Json;
}

export function string(value: unknown, where: string): string {
  if (typeof value !== "string") throw new ProtocolError(where, "must be a string");
  return value;
}

export function id(value: unknown, where: string): string {
  const text = string(value, where);
  if (text === "") throw new ProtocolError(where, "must not be empty");
  return text;
}

export function integer(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value))
    throw new ProtocolError(where, "must be an integer");
  return value;
}

export function number(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new ProtocolError(where, "must be a number");
  return value;
}

export function boolean(value: unknown, where: string): boolean {
  if (typeof value !== "boolean") throw new ProtocolError(where, "must be a boolean");
  return value;
}

export function array<T>(
  value: unknown,
  where: string,
  item: (value: unknown, where: string) => T,
): T[] {
  if (!Array.isArray(value)) throw new ProtocolError(where, "must be an array");
  return value.map((v, i) => item(v, `${where}[${i}]`));
}

/** A field that may be absent or null (the upstream models' `X | None = None`). */
export function optional<T>(
  value: unknown,
  where: string,
  read: (value: unknown, where: string) => T,
): T | null {
  return value === undefined || value === null ? null : read(value, where);
}

export function stringMap(value: unknown, where: string): Record<string, string> {
  const entries = Object.entries(object(value, where));
  return Object.fromEntries(entries.map(([k, v]) => [k, string(v, `${where}.${k}`)]));
}
