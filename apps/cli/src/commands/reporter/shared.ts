// What several reporter verbs check: the mode of a reporter.
import { CliError, EXIT } from "../../exit-codes.ts";

export const MODES = ["manual", "live"] as const;
export type Mode = (typeof MODES)[number];

export function checkMode(value: string | undefined, label: string): Mode | undefined {
  if (value === undefined) return undefined;
  const mode = MODES.find((m) => m === value);
  if (!mode) throw new CliError(`${label}: expected manual or live, got '${value}'`, EXIT.usage);
  return mode;
}
