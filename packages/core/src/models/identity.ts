// Identity: whoami, tokens, players and CLI sign-in codes.
import { z } from "zod";

import { PlayerId, TokenId, Uuid } from "../ids.ts";
import { queryInt, Timestamp } from "./common.ts";

export const SubjectType = z.enum(["anonymous", "user", "player", "machine", "reporter"]);

export const WhoAmI = z
  .object({
    subject_type: SubjectType,
    subject_id: z.string().nullable(),
    user_email: z.string(),
    owner_user_id: z.string().nullable(),
    scopes: z.array(z.string()),
    is_admin: z.boolean().meta({
      description:
        "The user holds the admin role: its powers are available to requests that send `X-Use-Elevated-Privileges: true`.",
    }),
    elevated: z.boolean().meta({
      description:
        "This request acts with admin powers: an admin sent `X-Use-Elevated-Privileges: true`.",
    }),
  })
  .meta({
    id: "WhoAmI",
    description: "`subject_type` is `anonymous` when the token is missing or invalid.",
  });

export const TokenKind = z.enum(["user", "machine"]);

export const Token = z
  .object({
    id: TokenId,
    name: z.string(),
    kind: z.enum(["user", "machine", "player"]),
    machine_id: z.string().nullable(),
    machine_name: z.string().nullable(),
    player_id: z.string().nullable(),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
  })
  .meta({
    id: "Token",
    description: "A token's record; its value is never returned after creation.",
  });

export const CreateTokenRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    kind: TokenKind.default("user"),
    machine_name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/)
      .optional()
      .meta({
        description: "Required for kind `machine`: the machine identity that owns the budget.",
      }),
    expires_in_days: z.number().int().min(1).max(3650).optional(),
  })
  .meta({ id: "CreateTokenRequest" });

export const CreatedToken = Token.extend({
  token: z.string().meta({ description: "The token value, shown once." }),
}).meta({
  id: "CreatedToken",
});

export const Player = z
  .object({
    id: PlayerId,
    name: z.string(),
    owner_user_id: z.string(),
    user_id: z.string().meta({ description: "The owner's user id (the hosted service's name)." }),
    is_default: z.boolean().meta({
      description:
        "The owner's first player: a submission without `player_id` competes as it. Made for each user when first needed.",
    }),
    avatar_url: z.string().nullable(),
    created_at: Timestamp,
    disabled_at: Timestamp.nullable(),
  })
  .meta({ id: "Player" });

export const CreatePlayerRequest = z
  .strictObject({ name: z.string().trim().min(1).max(100) })
  .meta({ id: "CreatePlayerRequest" });

export const PlayerLogin = z
  .object({ player_id: PlayerId, token: z.string(), expires_at: Timestamp })
  .meta({ id: "PlayerLogin" });

export const PlayerCredential = z
  .object({
    id: Uuid.meta({ description: "A UUID, as the hosted service's clients expect." }),
    player_id: PlayerId,
    name: z.string(),
    token_preview: z.string().meta({
      description: "The token's kind (`ply_…`): never any of its secret part.",
    }),
    scopes: z.array(z.string()),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
  })
  .meta({ id: "PlayerCredential" });

export const CreatePlayerCredentialRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100).default("default"),
    scopes: z
      .array(z.enum(["write"]))
      .max(1)
      .optional()
      .meta({ description: "A credential acts as its player: `write` is the one scope." }),
  })
  .meta({ id: "CreatePlayerCredentialRequest" });

export const CreatedPlayerCredential = PlayerCredential.extend({ token: z.string() }).meta({
  id: "CreatedPlayerCredential",
});

export const AuthCodeExchangeRequest = z
  .strictObject({ code: z.string().min(1).max(200) })
  .meta({ id: "AuthCodeExchangeRequest" });
export const AuthCodeExchangeResponse = z
  .object({ token: z.string() })
  .meta({ id: "AuthCodeExchangeResponse" });

export type WhoAmI = z.infer<typeof WhoAmI>;
export type SubjectType = z.infer<typeof SubjectType>;
export type Token = z.infer<typeof Token>;
export type Player = z.infer<typeof Player>;

export const AdminAuditEntry = z
  .object({
    id: z.string(),
    at: Timestamp,
    user_id: z.string(),
    user_email: z.string(),
    token_id: z.string(),
    operation_id: z.string(),
    method: z.string(),
    path: z.string().meta({ description: "The request's path, without its query string." }),
    status: z.number().int().meta({ description: "The status the server answered with." }),
  })
  .meta({
    id: "AdminAuditEntry",
    description:
      "One state-changing request an admin made with elevated privileges. Request bodies are never recorded.",
  });

export const AdminAuditQuery = z.object({
  limit: queryInt(1, 500).default(100),
  user_id: z.string().max(100).optional().meta({ description: "Only this admin's actions." }),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;

/** The web view's own sign-in, as its pages' script reads it (`GET /web/session`). */
export const WebSession = z
  .object({
    signed_in: z.boolean(),
    user_id: z.string().nullable(),
    user_email: z.string().nullable(),
    csrf: z.string().nullable().meta({
      description:
        "Sent back as `X-Gauntlet-CSRF` on every API request the page makes: the session cookie counts only with it.",
    }),
  })
  .meta({ id: "WebSession" });
export type WebSession = z.infer<typeof WebSession>;
