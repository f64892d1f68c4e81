// What a leased job's game process is given of its coworld's secrets. Coworlds store and manage
// them (coworlds/coworlds.ts); the work queue, below coworlds (a coworld's certification queues an
// episode), opens them only when it hands a job to a runner.
import type { Kysely } from "kysely";

import type { SecretBox } from "../auth/secret-box.ts";
import type { Database } from "../store/schema.ts";

/** Decrypted secrets of a coworld name, for the game process of one of its episodes. */
export async function secretsForGame(
  db: Kysely<Database>,
  box: SecretBox,
  name: string,
): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom("coworld_secrets")
    .select(["secret_name", "ciphertext"])
    .where("coworld_name", "=", name)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.secret_name, box.open(r.ciphertext)]));
}
