// The state blob the commissioner hands back in round_complete and reads in the next round_start:
// per hill (division id), who holds the crown, for how many rounds in a row (the reign), since
// which round, and how often the crown has changed hands. A blob it did not write (another
// commissioner's, or none) is read as "no king yet", never as an error: the platform keeps
// state per commissioner runnable, and a league may have switched commissioners.

export const STATE_KIND = "gridrush-king-of-the-hill";
const STATE_VERSION = 1;

export interface Crown {
  policy_version_id: string;
  player_id: string | null;
  /** Rounds in a row this king has ended as king. */
  reign: number;
  crowned_in_round: number;
  /** Times the crown of this hill has changed hands, all rounds. */
  crown_changes: number;
}

export interface HillState {
  kind: typeof STATE_KIND;
  version: typeof STATE_VERSION;
  hills: Record<string, Crown>;
}

export function emptyState(): HillState {
  return { kind: STATE_KIND, version: STATE_VERSION, hills: {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function crown(value: unknown): Crown | null {
  if (!isRecord(value)) return null;
  const { policy_version_id, player_id, reign, crowned_in_round, crown_changes } = value;
  if (typeof policy_version_id !== "string" || policy_version_id === "") return null;
  if (player_id !== null && typeof player_id !== "string") return null;
  for (const n of [reign, crowned_in_round, crown_changes])
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return null;
  return {
    policy_version_id,
    player_id,
    reign: Number(reign),
    crowned_in_round: Number(crowned_in_round),
    crown_changes: Number(crown_changes),
  };
}

/** The previous round's state, or an empty one with why the blob was not used. */
export function readState(raw: unknown): { state: HillState; ignored: string | null } {
  if (raw === null || raw === undefined) return { state: emptyState(), ignored: null };
  if (
    !isRecord(raw) ||
    raw.kind !== STATE_KIND ||
    raw.version !== STATE_VERSION ||
    !isRecord(raw.hills)
  )
    return { state: emptyState(), ignored: "a state blob this commissioner did not write" };
  const state = emptyState();
  for (const [division, value] of Object.entries(raw.hills)) {
    const read = crown(value);
    if (read === null)
      return { state: emptyState(), ignored: `a malformed crown for hill ${division}` };
    state.hills[division] = read;
  }
  return { state, ignored: null };
}
