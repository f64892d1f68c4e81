// Small text formats shared by the screens.

export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}

/** HH:MM:SS of a timestamp, in local time; "--:--:--" when it cannot be read. */
export function formatClock(iso: string | null): string {
  if (iso === null) return "--:--:--";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "--:--:--";
  return [at.getHours(), at.getMinutes(), at.getSeconds()]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
}

/** "12s ago", "3m ago", "2h ago". */
export function timeAgo(iso: string | null, now: number): string {
  if (iso === null) return "";
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  return `${Math.floor(seconds / 3600)}h ago`;
}

/** One line of text: newlines and tabs become spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A text progress bar of `width` cells. */
export function progressBar(done: number, total: number, width: number): string {
  const cells = Math.max(0, width);
  const filled = total > 0 ? Math.min(cells, Math.round((done / total) * cells)) : 0;
  return "█".repeat(filled) + "░".repeat(cells - filled);
}

/** A row's 95% interval as its two ends ("1530…1590"); empty when the row has none. */
export function formatInterval(interval: { low: number; high: number } | null | undefined): string {
  if (!interval) return "";
  const end = (v: number) => (Math.abs(v) >= 100 ? String(Math.round(v)) : v.toFixed(1));
  return `${end(interval.low)}…${end(interval.high)}`;
}

/**
 * The ranks a row could hold ("2–4"); "settled" once its rank is, "tied 2–3" when it is settled
 * as a tie with its neighbours; empty when the server sends no figures.
 */
export function formatRankRange(
  range: { best: number; worst: number } | undefined,
  settled?: boolean,
): string {
  if (!range) return "";
  const span = range.best === range.worst ? "" : `${range.best}–${range.worst}`;
  if (settled === true || span === "") return span === "" ? "settled" : `tied ${span}`;
  return span;
}
