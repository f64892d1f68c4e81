// What commands print: `--json` prints the API's response exactly (pretty, one document);
// otherwise aligned tables and key/value blocks for people.
import { bold } from "./terminal.ts";

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export type Cell = string | number | boolean | null | undefined;

function text(cell: Cell): string {
  if (cell === null || cell === undefined || cell === "") return "-";
  return String(cell);
}

/** Visible width: ignores colour escapes. */
function width(value: string): number {
  // eslint-disable-next-line no-control-regex
  return [...value.replace(/\u001b\[[0-9;]*m/g, "")].length;
}

export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
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
  return [bold(line(headers.map((h) => h.toUpperCase()))), ...cells.map(line)].join("\n");
}

export function printTable(
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
  empty = "nothing to show",
): void {
  if (rows.length === 0) {
    process.stderr.write(`${empty}\n`);
    return;
  }
  process.stdout.write(`${formatTable(headers, rows)}\n`);
}

export function printFields(fields: readonly (readonly [string, Cell])[]): void {
  const w = Math.max(...fields.map(([k]) => k.length));
  process.stdout.write(
    `${fields.map(([k, v]) => `${bold(`${k}:`)}${" ".repeat(w - k.length + 1)}${text(v)}`).join("\n")}\n`,
  );
}

/** A line for people on standard error (confirmations), so stdout stays the result. */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}

export function shortTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  return iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
}
