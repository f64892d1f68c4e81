// Building the page: every element is made here, and text always goes in as textContent, so a
// name a competitor chose (`<script>…`) shows as the characters it is.
export type Child = Node | string | number | null | undefined | false;

export function el(
  tag: string,
  props?: Record<string, string | undefined> | null,
  children?: readonly Child[],
): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined) continue;
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children ?? [])
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

export const text = (tag: string, value: string, cls?: string) =>
  el(tag, { text: value, class: cls });
export const muted = (value: string) => el("p", { class: "muted", text: value });

/** A table; `numeric` columns align right. A cell is text or a node. */
export function table(
  head: readonly string[],
  rows: readonly (readonly Child[])[],
  numeric: readonly number[] = [],
): HTMLElement {
  const cls = (i: number) => (numeric.includes(i) ? "num" : undefined);
  return el("div", { class: "scroll" }, [
    el("table", null, [
      el("thead", null, [
        el(
          "tr",
          null,
          head.map((h, i) => el("th", { text: h, class: cls(i), scope: "col" })),
        ),
      ]),
      el(
        "tbody",
        null,
        rows.map((cells) =>
          el(
            "tr",
            null,
            cells.map((c, i) => el("td", { class: cls(i) }, [c])),
          ),
        ),
      ),
    ]),
  ]);
}

/** A definition list of facts about the page's subject. */
export function facts(pairs: readonly (readonly [string, Child])[]): HTMLElement {
  return el(
    "dl",
    { class: "facts" },
    pairs.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", null, [v])]),
  );
}

export function ago(iso: string | null | undefined): string {
  if (!iso) return "";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

export const round2 = (n: number) => String(Math.round(n * 100) / 100);
