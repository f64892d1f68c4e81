// What commands print: `--json` prints the API's response exactly (pretty, one document);
// otherwise aligned tables and key/value blocks for people. The `write*` functions print to the
// IOStreams a command was given.
import { visible } from "@gauntlet/core";

import type { IOStreams } from "./io.ts";
import { bold, type MaybeTerminal } from "./terminal.ts";

export type Cell = string | number | boolean | null | undefined;

export { visible };

function text(cell: Cell): string {
  if (cell === null || cell === undefined || cell === "") return "-";
  return visible(String(cell));
}

/** Visible width: ignores colour escapes. */
function width(value: string): number {
  // eslint-disable-next-line no-control-regex
  return [...value.replace(/\u001b\[[0-9;]*m/g, "")].length;
}

export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
  stream: MaybeTerminal = process.stdout,
): string {
  const cells = rows.map((row) => headers.map((_, i) => text(row[i])));
  const widths = headers.map((h, i) =>
    Math.max(width(h), ...cells.map((row) => width(row[i] ?? ""))),
  );
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v + " ".repeat((widths[i] ?? 0) - width(v))))
      .join("  ")
      .trimEnd();
  return [bold(line(headers.map((h) => h.toUpperCase())), stream), ...cells.map(line)].join("\n");
}

export function writeJson(io: IOStreams, value: unknown): void {
  io.out.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function writeTable(
  io: IOStreams,
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
  empty = "nothing to show",
): void {
  if (rows.length === 0) {
    io.err.write(`${empty}\n`);
    return;
  }
  io.out.write(`${formatTable(headers, rows, io.out)}\n`);
}

export function formatFields(
  fields: readonly (readonly [string, Cell])[],
  stream: MaybeTerminal = process.stdout,
): string {
  const w = Math.max(...fields.map(([k]) => k.length));
  return fields
    .map(([k, v]) => `${bold(`${k}:`, stream)}${" ".repeat(w - k.length + 1)}${text(v)}`)
    .join("\n");
}

export function writeFields(io: IOStreams, fields: readonly (readonly [string, Cell])[]): void {
  io.out.write(`${formatFields(fields, io.out)}\n`);
}

/** A line for people on standard error (confirmations), so stdout stays the result. */
export function writeNote(io: IOStreams, message: string): void {
  io.err.write(`${message}\n`);
}

export function shortTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  return iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
}
