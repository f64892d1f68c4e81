// Private episode inputs (docs/api.md, "Private episode inputs"): an episode may name a secret of
// its coworld holding a `coworld.game_config_overlay.v1` document. Only the name is stored; the
// document is read, checked and resolved here when a runner takes the job, and goes to the game's
// config alone (LeasedJob.game_config_overlay). Nothing here ever puts the document's bytes or a
// secret's value into an error text: errors name secrets, never their content.
import type { Kysely } from "kysely";

import { GAME_CONFIG_OVERLAY_FORMAT, GameConfigOverlayDocument } from "@gauntlet/core";

import type { SecretBox } from "../auth/secret-box.ts";
import type { Database } from "../store/schema.ts";

const SECRET_REF = /^secret:\/\/coworld\/([^/]+)\/([A-Za-z_][A-Za-z0-9_]{0,99})$/;

/** Whether the coworld name's namespace holds a secret of this name (checked when an episode is
 * requested; its content is checked when the job is taken). */
export async function overlaySecretExists(
  db: Kysely<Database>,
  coworldName: string,
  secretName: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("coworld_secrets")
    .select("secret_name")
    .where("coworld_name", "=", coworldName)
    .where("secret_name", "=", secretName)
    .executeTakeFirst();
  return row !== undefined;
}

export type ResolvedOverlay = { overrides: Record<string, unknown> } | { error: string };

function refsIn(value: unknown, out: Set<string>): void {
  if (typeof value === "string" && value.startsWith("secret://")) out.add(value);
  else if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) refsIn(v, out);
}

function replaced(value: unknown, urls: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return urls.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaced(v, urls));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaced(v, urls)]));
  return value;
}

/**
 * The overlay of `secretName` in `coworldName`'s namespace, its `secret://coworld/<coworldName>/…`
 * values replaced by `data:` URLs of those secrets (the hosted service gives short-lived read
 * URLs; a `data:` URL is read the same way and needs no storage). A reference to another
 * coworld's namespace is refused: an overlay reads its own game's secrets only.
 */
export async function resolveOverlay(
  db: Kysely<Database>,
  box: SecretBox,
  coworldName: string,
  secretName: string,
): Promise<ResolvedOverlay> {
  const rows = await db
    .selectFrom("coworld_secrets")
    .select(["secret_name", "ciphertext"])
    .where("coworld_name", "=", coworldName)
    .execute();
  const sealed = new Map(rows.map((r) => [r.secret_name, r.ciphertext]));
  const own = sealed.get(secretName);
  const what = `the private config overlay ${coworldName}/${secretName}`;
  if (own === undefined) return { error: `${what} no longer exists` };
  let document: GameConfigOverlayDocument;
  try {
    const parsed = GameConfigOverlayDocument.safeParse(JSON.parse(box.open(own)));
    if (!parsed.success) throw new Error("shape");
    document = parsed.data;
  } catch {
    return { error: `${what} is not a ${GAME_CONFIG_OVERLAY_FORMAT} JSON document` };
  }
  if ("tokens" in document.game_config_overrides)
    return { error: `${what} may not set tokens (the runner manages them)` };
  const refs = new Set<string>();
  refsIn(document.game_config_overrides, refs);
  const urls = new Map<string, string>();
  for (const ref of refs) {
    const match = SECRET_REF.exec(ref);
    const name = match?.[2];
    if (!match || match[1] !== coworldName || name === undefined)
      return { error: `${what} refers to a secret outside secret://coworld/${coworldName}/` };
    const ciphertext = sealed.get(name);
    if (ciphertext === undefined)
      return { error: `${what} refers to secret ${name}, which does not exist` };
    const bytes = Buffer.from(box.open(ciphertext), "utf8");
    urls.set(ref, `data:application/octet-stream;base64,${bytes.toString("base64")}`);
  }
  return { overrides: replaced(document.game_config_overrides, urls) as Record<string, unknown> };
}
