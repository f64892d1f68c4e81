// Solo play sessions (`/v2/play-sessions`): one person in slot 0 against policy opponents. The
// person's slot is joined as the session opens, so its episode is queued at once; `join_url`
// opens the coworld's player client on that slot (made by the route from the seat's access).
import type { Kysely } from "kysely";

import {
  CoworldManifest,
  rosterBounds,
  type CreatePlaySession,
  type PlaySession,
} from "@gauntlet/core";

import { canRunPlaySession } from "../access/play.ts";
import { actsAsUser, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { fixedSeat, isBundleless, type Seat } from "../evaluations/roster.ts";
import { parseJson } from "../shared/clock.ts";
import { forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { playModuleOf } from "./play-modules.ts";
import {
  coworldOfBody,
  findSession,
  openSession,
  personLabelOf,
  playerSocketPath,
  settleSession,
  variantOf,
  type SeatAccess,
  type SessionState,
} from "./sessions.ts";

function view(state: SessionState, joinUrl: string | null): PlaySession {
  const { row, seats } = state;
  return {
    id: row.id,
    user_id: row.user_id,
    coworld_id: row.coworld_id,
    status: row.status,
    human_position: seats.find((s) => s.kind === "human")?.position ?? 0,
    episode_request_id: row.episode_request_id,
    join_url: joinUrl,
    error: row.error,
    error_type: row.error_type,
    created_at: row.created_at,
    ended_at: row.ended_at,
  };
}

export async function createPlaySession(
  db: Kysely<Database>,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  body: CreatePlaySession,
): Promise<{ session: PlaySession; access: SeatAccess }> {
  if (!actsAsUser(identity)) throw forbidden("a play session is for a person: use a user's token");
  const coworld = await coworldOfBody(db, body.coworld_id);
  const client = await playModuleOf(db, coworld.id, "player_client");
  if (!client)
    throw invalidInput(
      ["body", "coworld_id"],
      `${coworld.name} ${coworld.version} has no player_client play module to play it with`,
      "value_error",
      body.coworld_id,
    );
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const bounds = rosterBounds(manifest);
  const count = body.opponents.length + 1;
  if (count < bounds.min || count > bounds.max)
    throw invalidInput(
      ["body", "opponents"],
      `${coworld.name} seats ${bounds.min}–${bounds.max} players; you and ${body.opponents.length} opponent(s) are ${count}`,
    );
  const variant = variantOf(manifest, coworld.name, body.variant_id);
  const opponents: Seat[] = [];
  for (const [i, ref] of body.opponents.entries()) {
    const loc = ["body", "opponents", i];
    const seat = await fixedSeat(db, identity, ref, loc, { coworldId: coworld.id, leagueId: null });
    // A session's policies run on the process runtime; a version with no bundle (an image)
    // would run its `run` in the coworld's own directory there.
    if (await isBundleless(db, seat.policyVersionId))
      throw invalidInput(
        loc,
        `policy version ${seat.policyVersionId} has no bundle: it runs only on the docker runtime, and a play session's opponents run as processes`,
        "value_error",
        ref,
      );
    opponents.push(seat);
  }

  const { state, joinTokens } = await openSession(db, box, {
    creatorUserId: identity.userId,
    coworld,
    kind: "solo",
    variantId: variant.id,
    gameConfig: { ...variant.game_config, ...body.game_config_overrides },
    allowSpectators: false,
    lobbyId: null,
    seats: [
      {
        kind: "human",
        label: await personLabelOf(db, identity.userId),
        userId: identity.userId,
        joined: true,
      },
      ...opponents.map((seat) => ({
        kind: "policy" as const,
        label: seat.displayName,
        policyVersionId: seat.policyVersionId,
        playerId: seat.playerId,
      })),
    ],
  });
  const token = joinTokens.get(0) ?? "";
  return {
    session: view(state, null),
    access: { socketPath: playerSocketPath(state.row.id, token), client },
  };
}

export async function getPlaySession(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<PlaySession> {
  const state = await findSession(db, id);
  if (!state || !canRunPlaySession(identity, state.row)) throw notFound("play session", id);
  return view(await settleSession(db, state), null);
}
