// Reads of this server's API, as an anonymous visitor: the API's own access rules decide what a
// page may show, so the pages never hold a second rule of who may see what.
export const base = document.documentElement.getAttribute("data-base") ?? "";

export class NotFound extends Error {}

export async function get<T>(path: string): Promise<T> {
  const r = await fetch(base + path, {
    headers: { accept: "application/json" },
    credentials: "omit",
  });
  if (r.status === 404) throw new NotFound(`${path} was not found`);
  if (!r.ok) throw new Error(`${path} answered ${r.status}`);
  return (await r.json()) as T;
}

export const q = encodeURIComponent;
