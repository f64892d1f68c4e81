// The one rule for a name typed where an id is taken: the thing of that exact name, else of
// that name in any case; none or several is one line that lists what there is to choose from.
import { CliError, EXIT } from "../exit-codes.ts";

export interface Named {
  id: string;
  name: string;
  /** Tells apart things of one name (e.g. a division's league). */
  detail?: string;
}

const MAX_LISTED = 5;

function listed(things: readonly Named[]): string {
  const shown = things
    .slice(0, MAX_LISTED)
    .map((t) => `${t.name} (${t.detail ? `${t.detail}, ` : ""}${t.id})`);
  const more = things.length > MAX_LISTED ? `, and ${things.length - MAX_LISTED} more` : "";
  return `${shown.join(", ")}${more}`;
}

/**
 * The one of `candidates` named `name`. `kind` is singular ("league"); `label` names the
 * argument ("--league"), as every usage error does.
 */
export function pickByName<T extends Named>(
  candidates: readonly T[],
  name: string,
  kind: string,
  label: string,
): T {
  const exact = candidates.filter((c) => c.name === name);
  const folded = name.toLowerCase();
  const matches =
    exact.length > 0 ? exact : candidates.filter((c) => c.name.toLowerCase() === folded);
  const [only, ...others] = matches;
  if (only && others.length === 0) return only;
  if (only)
    throw new CliError(
      `${label}: ${matches.length} ${kind}s are named '${name}': ${listed(matches)}; give the id`,
      EXIT.usage,
    );
  const near = candidates.filter(
    (c) => c.name.toLowerCase().includes(folded) || folded.includes(c.name.toLowerCase()),
  );
  const hint =
    near.length > 0
      ? ` (did you mean ${listed(near)}?)`
      : candidates.length > 0
        ? ` (there are: ${listed(candidates)})`
        : "";
  throw new CliError(`${label}: no ${kind} named '${name}'${hint}`, EXIT.notFound);
}
