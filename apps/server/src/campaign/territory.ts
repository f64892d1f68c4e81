// The rules of the campaign board, as pure functions over cells: where a settled round's
// winner captures, and how a re-carve maps old territory onto a new geometry.
import type { CampaignGeometry } from "@gauntlet/core";

export interface BoardCell {
  x: number;
  y: number;
  owner_player_id: string | null;
}

/** Default geometry when the league's `settings.campaign_board` names none. */
export const DEFAULT_GEOMETRY: CampaignGeometry = { width: 6, height: 6 };
const MAX_SIDE = 64;

/** The geometry a league's settings ask for: `settings.campaign_board = {width, height}`,
 * whole numbers 1–64; anything else falls back to the default, so a typo in free-form
 * settings never breaks the board. */
export function geometryOf(settings: Record<string, unknown>): CampaignGeometry {
  const raw = settings["campaign_board"];
  if (typeof raw !== "object" || raw === null) return DEFAULT_GEOMETRY;
  const side = (v: unknown, fallback: number) =>
    typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= MAX_SIDE ? v : fallback;
  const record = raw as Record<string, unknown>;
  return {
    width: side(record["width"], DEFAULT_GEOMETRY.width),
    height: side(record["height"], DEFAULT_GEOMETRY.height),
  };
}

/**
 * The territory rule: the winner of a settled round captures ONE cell — the first unowned
 * cell in row-major order (y, then x); when none is unowned, the first cell held by another
 * player. A winner who already holds every cell captures nothing. Returns the captured cell.
 */
export function captureTarget(cells: readonly BoardCell[], winner: string): BoardCell | undefined {
  const ordered = [...cells].sort((a, b) => a.y - b.y || a.x - b.x);
  return (
    ordered.find((c) => c.owner_player_id === null) ??
    ordered.find((c) => c.owner_player_id !== winner)
  );
}

/** The length of overlap of [a0,a1) and [b0,b1). */
const overlap = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * Re-carve: both boards cover the same unit square; each new cell takes the owner (or
 * unowned) that covers the largest area of it on the old board, ties going to the earlier
 * old cell in row-major order.
 */
export function recarve(
  from: CampaignGeometry,
  cells: readonly BoardCell[],
  to: CampaignGeometry,
): BoardCell[] {
  const byPos = new Map(cells.map((c) => [`${c.x},${c.y}`, c.owner_player_id]));
  const out: BoardCell[] = [];
  for (let y = 0; y < to.height; y++) {
    for (let x = 0; x < to.width; x++) {
      const [nx0, nx1, ny0, ny1] = [
        x / to.width,
        (x + 1) / to.width,
        y / to.height,
        (y + 1) / to.height,
      ];
      const area = new Map<string | null, number>();
      let best: { owner: string | null; area: number } = { owner: null, area: -1 };
      for (
        let oy = Math.floor(ny0 * from.height);
        oy < Math.min(from.height, Math.ceil(ny1 * from.height));
        oy++
      ) {
        for (
          let ox = Math.floor(nx0 * from.width);
          ox < Math.min(from.width, Math.ceil(nx1 * from.width));
          ox++
        ) {
          const a =
            overlap(nx0, nx1, ox / from.width, (ox + 1) / from.width) *
            overlap(ny0, ny1, oy / from.height, (oy + 1) / from.height);
          if (a <= 0) continue;
          const owner = byPos.get(`${ox},${oy}`) ?? null;
          const total = (area.get(owner) ?? 0) + a;
          area.set(owner, total);
          if (total > best.area + 1e-12) best = { owner, area: total };
        }
      }
      out.push({ x, y, owner_player_id: best.owner });
    }
  }
  return out;
}

/** Where an old cell lands on the new board: the new cell holding its centre. */
export function mapPoint(
  from: CampaignGeometry,
  to: CampaignGeometry,
  x: number,
  y: number,
): { x: number; y: number } {
  return {
    x: Math.floor(((x + 0.5) / from.width) * to.width),
    y: Math.floor(((y + 0.5) / from.height) * to.height),
  };
}

/** Cells owned per player. */
export function territory(cells: readonly BoardCell[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of cells)
    if (c.owner_player_id !== null)
      counts[c.owner_player_id] = (counts[c.owner_player_id] ?? 0) + 1;
  return counts;
}
