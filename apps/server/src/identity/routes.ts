import type { FastifyReply, FastifyRequest } from "fastify";

import { idPrefixes, type BodyOf, type QueryOf } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { isAuthenticated } from "../auth/identity.ts";
import { tokenPrefixes } from "../auth/secrets.ts";
import { hostnameOf } from "../http/base-path.ts";
import { defineHandlers, REPLIED, type AppContext } from "../http/handler.ts";
import { PAGE_CONTENT_SECURITY_POLICY, PAGE_HEADERS } from "../http/page-headers.ts";
import { forbidden, invalidInput, notFound } from "../shared/errors.ts";
import {
  cliLoginCodePage,
  cliLoginPage,
  cliLoginPolicy,
  isLoopbackCallback,
} from "./cli-login-page.ts";
import { createPlayer, getOwnedPlayer, listPlayers } from "./players.ts";
import { assertOwnOrigin, SIGN_IN_DOCS_PATH, SignInGuard } from "./sign-in-guard.ts";
import {
  assertCanCreateMachineToken,
  createApiToken,
  createAuthCode,
  createPlayerToken,
  exchangeAuthCode,
  listTokens,
  revokeToken,
} from "./tokens.ts";
import { checkPassword } from "./users.ts";

/** A credential as the hosted service's clients read it: its id a bare UUID, never its secret. */
function toCredential(
  row: {
    id: string;
    name: string;
    created_at: string;
    expires_at: string | null;
    last_used_at: string | null;
  },
  playerId: string,
) {
  return {
    id: row.id.slice(idPrefixes.credential.length),
    player_id: playerId,
    name: row.name,
    token_preview: `${tokenPrefixes.player}…`,
    scopes: ["write"],
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
  };
}

const NOT_LOOPBACK =
  "The callback must be an http address on this machine (127.0.0.1, localhost or [::1]).";

function signInPage(
  action: "cli-login" | "cli-auth",
  query: QueryOf<"cliLoginPage">,
  app: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): string {
  if (query.callback !== undefined && !isLoopbackCallback(query.callback))
    throw invalidInput(["query", "callback"], NOT_LOOPBACK, "value_error", query.callback);
  if (query.callback !== undefined)
    reply.header("content-security-policy", cliLoginPolicy(query.callback));
  // At the data host's root (where softmax-cli opens it) the front page is under the prefix.
  const atDataHostRoot =
    request.url === request.originalUrl &&
    app.config.dataHosts.some((h) => h.toLowerCase() === hostnameOf(request.headers.host));
  return cliLoginPage({
    action,
    callback: query.callback,
    state: query.state,
    home: atDataHostRoot ? `${app.config.apiPrefix}/` : undefined,
  });
}

/**
 * Checks the password, then sends a credential to the loopback callback, or — without a
 * callback — shows it for the person to paste into their terminal. `/cli-auth` gives a one-time
 * code (exchanged for a token: our CLI, softmax-cli's current version); `/cli-login` gives the
 * token itself, as the hosted service did for the softmax-cli version coworld pins.
 */
async function signIn(
  action: "cli-login" | "cli-auth",
  body: BodyOf<"cliLoginSubmit">,
  app: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | typeof REPLIED> {
  const base = app.baseUrl(request);
  assertOwnOrigin(request, base);
  if (body.callback !== undefined && !isLoopbackCallback(body.callback))
    throw invalidInput(["body", "callback"], NOT_LOOPBACK, "value_error", body.callback);
  const guard = new SignInGuard(app.attempts);
  await guard.admit(body.email, request.ip, `${base}${SIGN_IN_DOCS_PATH}`, (seconds) => {
    reply.header("retry-after", String(seconds));
  });
  const user = await checkPassword(app.store.db, body.email, body.password);
  if (!user) {
    reply.code(401);
    if (body.callback !== undefined)
      reply.header("content-security-policy", cliLoginPolicy(body.callback));
    return cliLoginPage({
      action,
      callback: body.callback,
      state: body.state,
      email: body.email,
      error: "Wrong email or password.",
    });
  }
  await guard.succeeded(body.email, request.ip);
  const [name, value] =
    action === "cli-auth"
      ? (["code", await createAuthCode(app.store.db, user.id)] as const)
      : ([
          "token",
          (
            await createApiToken(app.store.db, {
              userId: user.id,
              name: `cli-login ${new Date().toISOString()}`,
              kind: "user",
            })
          ).token,
        ] as const);
  if (body.callback === undefined) {
    // Shown once, to the person who signed in; never cached. Sent here (the operation's own
    // answer is the callback's redirect), with every page's headers.
    await reply
      .code(200)
      .headers(PAGE_HEADERS)
      .header("content-security-policy", PAGE_CONTENT_SECURITY_POLICY)
      .header("cache-control", "no-store")
      .type("text/html; charset=utf-8")
      .send(cliLoginCodePage(name, value));
    return REPLIED;
  }
  const target = new URL(body.callback);
  target.searchParams.set(name, value);
  if (body.state) target.searchParams.set("state", body.state);
  await reply.redirect(target.toString(), 302);
  return REPLIED;
}

export const identityHandlers = defineHandlers({
  whoami: async ({ identity }) =>
    isAuthenticated(identity)
      ? {
          subject_type: identity.kind,
          subject_id: identity.subjectId,
          user_email: identity.email,
          owner_user_id: identity.userId,
          scopes: [...identity.scopes],
          is_admin: identity.adminRole,
          elevated: actsAsAdmin(identity),
        }
      : {
          subject_type: "anonymous",
          subject_id: null,
          user_email: "unknown",
          owner_user_id: null,
          scopes: [],
          is_admin: false,
          elevated: false,
        },

  cliLoginPage: async ({ query, app, request, reply }) =>
    signInPage("cli-login", query, app, request, reply),
  cliAuthPage: async ({ query, app, request, reply }) =>
    signInPage("cli-auth", query, app, request, reply),
  cliLoginSubmit: async ({ body, app, request, reply }) =>
    signIn("cli-login", body, app, request, reply),
  cliAuthSubmit: async ({ body, app, request, reply }) =>
    signIn("cli-auth", body, app, request, reply),

  validateToken: async ({ identity }) => ({ valid: isAuthenticated(identity) }),

  exchangeAuthCode: async ({ body, app }) => ({
    token: await exchangeAuthCode(app.store.db, body.code),
  }),

  listTokens: async ({ identity, app }) => {
    if (identity.kind !== "user") throw forbidden("Only a user token manages tokens.");
    return listTokens(app.store.db, identity.userId);
  },

  createToken: async ({ identity, body, app }) => {
    if (identity.kind !== "user") throw forbidden("Only a user token creates tokens.");
    if (body.kind === "machine") {
      assertCanCreateMachineToken(identity);
      if (!body.machine_name)
        throw invalidInput(
          ["body", "machine_name"],
          "A machine token needs machine_name: the machine identity that owns its budget.",
          "missing",
        );
    }
    return createApiToken(app.store.db, {
      userId: identity.userId,
      name: body.name,
      kind: body.kind,
      machineName: body.machine_name,
      expiresInDays: body.expires_in_days,
    });
  },

  revokeToken: async ({ identity, params, app }) => {
    if (identity.kind !== "user") throw forbidden("Only a user token revokes tokens.");
    const token = await revokeToken(app.store.db, identity, params.token_id);
    await app.auth.revoke({ tokenIds: [token.id] });
    return token;
  },

  listPlayers: async ({ identity, app }) => listPlayers(app.store.db, identity.userId),

  createPlayer: async ({ identity, body, app }) => {
    if (identity.kind !== "user") throw forbidden("Only a user token creates players.");
    return createPlayer(app.store.db, identity.userId, body.name);
  },

  playerLogin: async ({ identity, params, app }) => {
    if (identity.kind !== "user")
      throw forbidden("Only the player's owner signs in as the player.");
    const player = await getOwnedPlayer(app.store.db, identity, params.player_id);
    const { row, token } = await createPlayerToken(app.store.db, player, "login", "login");
    return { player_id: player.id, token, expires_at: row.expires_at ?? "" };
  },

  listPlayerCredentials: async ({ identity, params, app }) => {
    const player = await getOwnedPlayer(app.store.db, identity, params.player_id);
    const rows = await app.store.db
      .selectFrom("tokens")
      .select(["id", "name", "created_at", "expires_at", "last_used_at"])
      .where("player_id", "=", player.id)
      .where("purpose", "=", "credential")
      .where("revoked_at", "is", null)
      .orderBy("created_at")
      .execute();
    return rows.map((r) => toCredential(r, player.id));
  },

  createPlayerCredential: async ({ identity, params, body, app }) => {
    if (identity.kind !== "user")
      throw forbidden("Only the player's owner creates its credentials.");
    const player = await getOwnedPlayer(app.store.db, identity, params.player_id);
    const { row, token } = await createPlayerToken(app.store.db, player, "credential", body.name);
    return { ...toCredential(row, player.id), token };
  },

  revokePlayerCredential: async ({ identity, params, app }) => {
    if (identity.kind !== "user")
      throw forbidden("Only the player's owner revokes its credentials.");
    const player = await getOwnedPlayer(app.store.db, identity, params.player_id);
    const tokenId = `${idPrefixes.credential}${params.credential_id}`;
    const credential = await app.store.db
      .selectFrom("tokens")
      .select("revoked_at")
      .where("id", "=", tokenId)
      .where("player_id", "=", player.id)
      .where("purpose", "=", "credential")
      .executeTakeFirst();
    if (!credential) throw notFound("credential", params.credential_id);
    // Revoking a revoked credential again changes nothing and answers the same way.
    if (credential.revoked_at === null) {
      await app.store.db
        .updateTable("tokens")
        .set({ revoked_at: new Date().toISOString() })
        .where("id", "=", tokenId)
        .where("revoked_at", "is", null)
        .execute();
      await app.auth.revoke({ tokenIds: [tokenId] });
    }
    return { id: params.credential_id };
  },

  revokePlayerCredentials: async ({ identity, params, app }) => {
    if (identity.kind !== "user")
      throw forbidden("Only the player's owner revokes its credentials.");
    const player = await getOwnedPlayer(app.store.db, identity, params.player_id);
    const result = await app.store.db
      .updateTable("tokens")
      .set({ revoked_at: new Date().toISOString() })
      .where("player_id", "=", player.id)
      .where("purpose", "=", "credential")
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    await app.auth.revoke({ playerIds: [player.id] });
    return { revoked: Number(result.numUpdatedRows) };
  },
});
