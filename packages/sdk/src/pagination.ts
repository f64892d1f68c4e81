// The list shapes of docs/api.md ("Conventions"), recognised from an operation's response schema
// (never listed by hand): a bare array (walked by `offset` when the operation takes it: the
// leagues' listing); an offset page `{entries, total_count, …}` (the rounds'
// `{entries, total_count, limit, offset}` and the `{entries, total_count}` of
// `/stats/policy-versions`); a cursor page `{entries, next_cursor}`. An offset or cursor page is
// only walked when the operation takes `offset` or `cursor` in its query.
import type { OperationDef } from "@gauntlet/core";

export type PageShape = "array" | "array-offset" | "offset" | "cursor";

/** The page a bare-array list is walked by when the caller names no `limit`. */
const ARRAY_PAGE = 100;

interface SchemaDef {
  type: string;
  innerType?: SchemaLike;
  shape?: Record<string, SchemaLike>;
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

const WRAPPERS = new Set(["nullable", "optional", "default", "readonly", "prefault", "catch"]);

/**
 * The schema under nullable/optional/default wrappers. Read by `def.type` so that it holds across
 * copies of zod.
 */
function unwrap(schema: SchemaLike): SchemaLike {
  let current = schema;
  while (WRAPPERS.has(current._zod.def.type) && current._zod.def.innerType)
    current = current._zod.def.innerType;
  return current;
}

function typeOf(schema: SchemaLike | undefined): string | undefined {
  return schema ? unwrap(schema)._zod.def.type : undefined;
}

export function pageShapeOf(op: OperationDef): PageShape | null {
  const response = unwrap(op.response);
  const def = response._zod.def;
  const query = op.query ? Object.keys(op.query.shape) : [];
  if (def.type === "array")
    return query.includes("offset") && query.includes("limit") ? "array-offset" : "array";
  if (def.type !== "object" || !def.shape || typeOf(def.shape.entries) !== "array") return null;
  const has = (key: string) => key in (def.shape ?? {});
  if (has("total_count") && query.includes("offset")) return "offset";
  if (has("next_cursor") && query.includes("cursor")) return "cursor";
  return null;
}

type Input = Readonly<Record<string, unknown>> | undefined;
type Fetch = (input: Input) => Promise<unknown>;

function entriesOf(page: unknown): readonly unknown[] {
  if (typeof page === "object" && page !== null && "entries" in page && Array.isArray(page.entries))
    return page.entries;
  return [];
}

function numberField(page: unknown, key: string): number | null {
  if (typeof page !== "object" || page === null || !(key in page)) return null;
  const value = (page as Record<string, unknown>)[key];
  return typeof value === "number" ? value : null;
}

/** Every item of a list operation, fetching the next page only when the caller reaches it. */
export async function* iterateItems(
  shape: PageShape,
  fetchPage: Fetch,
  input: Input,
): AsyncGenerator<unknown, void, undefined> {
  if (shape === "array") {
    const list = await fetchPage(input);
    if (Array.isArray(list)) yield* list;
    return;
  }
  if (shape === "array-offset") {
    // Pages of `limit` items until a shorter one (the last); the limit is always sent, so the
    // server's default never decides where the walk stops.
    const limit = typeof input?.limit === "number" ? input.limit : ARRAY_PAGE;
    let offset = typeof input?.offset === "number" ? input.offset : 0;
    for (;;) {
      const list = await fetchPage({ ...input, limit, offset });
      const items = Array.isArray(list) ? list : [];
      yield* items;
      offset += items.length;
      if (items.length < limit) return;
    }
  }
  if (shape === "offset") {
    let offset = typeof input?.offset === "number" ? input.offset : 0;
    for (;;) {
      const page = await fetchPage({ ...input, offset });
      const entries = entriesOf(page);
      yield* entries;
      offset += entries.length;
      const total = numberField(page, "total_count");
      if (entries.length === 0 || (total !== null && offset >= total)) return;
    }
  }
  let cursor = input?.cursor;
  for (;;) {
    const page = await fetchPage(
      cursor === undefined || cursor === null ? input : { ...input, cursor },
    );
    yield* entriesOf(page);
    const next =
      typeof page === "object" && page !== null && "next_cursor" in page ? page.next_cursor : null;
    // A server that hands back the same cursor would loop forever.
    if (next === null || next === undefined || next === "" || next === cursor) return;
    cursor = next;
  }
}

/** Every item of a list, every page fetched (`allItems(client.leagues.list.iterate())`). */
export async function allItems<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
