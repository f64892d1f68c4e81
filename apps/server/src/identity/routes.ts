import { isAuthenticated } from "../auth/identity.ts";
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { forbidden, invalidInput } from "../shared/errors.ts";
import { cliLoginPage, cliLoginPolicy, isLoopbackCallback } from "./cli-login-page.ts";
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

export const identityHandlers = defineHandlers({
  whoami: async ({ identity }) =>
    isAuthenticated(identity)
      ? {
          subject_type: identity.kind,
          subject_id: identity.subjectId,
          user_email: identity.email,
          owner_user_id: identity.userId,
          scopes: [...identity.scopes],
          is_admin: identity.isAdmin,
        }
      : {
          subject_type: "anonymous",
          subject_id: null,
          user_email: "unknown",
          owner_user_id: null,
          scopes: [],
          is_admin: false,
        },

  cliLoginPage: async ({ query, reply }) => {
    if (!isLoopbackCallback(query.callback))
      throw invalidInput(
        ["query", "callback"],
        "The callback must be an http address on this machine (127.0.0.1, localhost or [::1]).",
        "value_error",
        query.callback,
      );
    reply.header("content-security-policy", cliLoginPolicy(query.callback));
    return cliLoginPage({ callback: query.callback, state: query.state });
  },

  cliLoginSubmit: async ({ body, app, request, reply }) => {
    const base = app.baseUrl(request);
    assertOwnOrigin(request, base);
    if (!isLoopbackCallback(body.callback))
      throw invalidInput(
        ["body", "callback"],
        "The callback must be an http address on this machine (127.0.0.1, localhost or [::1]).",
        "value_error",
        body.callback,
      );
    const guard = new SignInGuard(app.attempts);
    await guard.admit(body.email, request.ip, `${base}${SIGN_IN_DOCS_PATH}`, (seconds) =>
      reply.header("retry-after", String(seconds)),
    );
    const user = await checkPassword(app.store.db, body.email, body.password);
    if (!user) {
      reply.code(401).header("content-security-policy", cliLoginPolicy(body.callback));
      return cliLoginPage({
        callback: body.callback,
        state: body.state,
        email: body.email,
        error: "Wrong email or password.",
      });
    }
    await guard.succeeded(body.email, request.ip);
    const code = await createAuthCode(app.store.db, user.id);
    const target = new URL(body.callback);
    target.searchParams.set("code", code);
    if (body.state) target.searchParams.set("state", body.state);
    await reply.redirect(target.toString(), 302);
    return REPLIED;
  },

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
      .select(["id", "name", "created_at", "last_used_at"])
      .where("player_id", "=", player.id)
      .where("purpose", "=", "credential")
      .where("revoked_at", "is", null)
      .orderBy("created_at")
      .execute();
    return rows.map((r) => ({ ...r, player_id: player.id }));
  },

  createPlayerCredential: async ({ identity, params, body, app }) => {
    if (identity.kind !== "user")
      throw forbidden("Only the player's owner creates its credentials.");
    const player = await getOwnedPlayer(app.store.db, identity, params.player_id);
    const { row, token } = await createPlayerToken(app.store.db, player, "credential", body.name);
    return {
      id: row.id,
      player_id: player.id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: null,
      token,
    };
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
