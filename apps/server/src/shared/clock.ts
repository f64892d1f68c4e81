export const nowIso = (): string => new Date().toISOString();

/** JSON text columns: parse what we stored ourselves. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
