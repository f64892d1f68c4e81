// A case-insensitive "contains" for SQL LIKE on SQLite and PostgreSQL alike: compare
// `lower(column) like pattern escape '\'`. `%` and `_` in what people search for are
// literal characters, not wildcards.
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
