// Certification: the manifest's own episode, run on a runner, decides whether a coworld
// version works (never_run → queued → certifying → certified | failed).
import type { Kysely } from "kysely";

import { CoworldManifest, type Certification } from "@gauntlet/core";

import { actsAsAdmin, type AdminActor } from "../access/admin.ts";
import { createEpisode } from "../episodes/episodes.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden } from "../shared/errors.ts";
import type { CertificationsTable, Database } from "../store/schema.ts";
import { getCoworldRow, toCertification } from "./coworlds.ts";

export async function certify(
  db: Kysely<Database>,
  actor: { userId: string } & AdminActor,
  coworldId: string,
): Promise<Certification> {
  const coworld = await getCoworldRow(db, coworldId);
  if (coworld.owner_user_id !== actor.userId && !actsAsAdmin(actor))
    throw forbidden("Only the coworld's owner or an admin certifies it.");
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("certifications")
      .selectAll()
      .where("coworld_id", "=", coworld.id)
      .executeTakeFirst();
    if (current && (current.state === "queued" || current.state === "certifying"))
      throw conflict(
        `coworld ${coworld.id} is already being certified (episode ${current.episode_request_id ?? "?"})`,
      );
    const names = new Map(manifest.player.map((p) => [p.id, p.name]));
    const { episodeRequestId } = await createEpisode(trx, {
      requesterUserId: actor.userId,
      purpose: "certification",
      coworld,
      gameConfig: manifest.certification.game_config,
      participants: manifest.certification.players.map((seat, position) => ({
        position,
        bundledPlayerId: seat.player_id,
        displayName: names.get(seat.player_id) ?? seat.player_id,
      })),
    });
    const row: CertificationsTable = {
      coworld_id: coworld.id,
      state: "queued",
      episode_request_id: episodeRequestId,
      error: null,
      updated_at: nowIso(),
    };
    await trx
      .insertInto("certifications")
      .values(row)
      .onConflict((oc) =>
        oc.column("coworld_id").doUpdateSet({
          state: row.state,
          episode_request_id: row.episode_request_id,
          error: null,
          updated_at: row.updated_at,
        }),
      )
      .execute();
    return toCertification(coworld.id, row);
  });
}
