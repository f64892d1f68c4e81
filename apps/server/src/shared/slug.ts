// Slugs of forums and wikis: lower-case letters, digits and dashes, made from a display name
// (a coworld's name), with a numeric suffix when the plain form is taken.

const MAX_BASE = 90;

export function slugBase(name: string): string {
  const base = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_BASE)
    .replace(/-+$/g, "");
  return base || "coworld";
}

/** `name` slugified, or with `-2`, `-3`, … appended until `taken` says no. */
export function slugify(name: string, taken: (slug: string) => boolean): string {
  const base = slugBase(name);
  if (!taken(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}
