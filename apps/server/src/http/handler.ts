// The typed seam between the contract and the domain: one handler per operation.
import type { FastifyReply, FastifyRequest } from "fastify";

import type {
  Contract,
  OperationBody,
  OperationDef,
  OperationId,
  OperationParams,
  OperationQuery,
  OperationResponseInput,
} from "@gauntlet/core";

import type { Authenticator } from "../auth/authenticate.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { EventBus } from "../events/bus.ts";
import type { EpisodeSettledEvent } from "../events/episode-settled.ts";
import type { EventHub } from "../events/hub.ts";
import type { AttemptStore } from "../limiter/attempts.ts";
import type { Store } from "../store/database.ts";

/** Returned by a handler that has already sent its reply itself (a redirect, a stream). */
export const REPLIED: unique symbol = Symbol("replied");

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * The API still serves without it (Redis: budgets fail open, tokens are looked up on every
   * request, events come by polling): a failure makes the replica degraded, not unready.
   */
  optional?: boolean;
}

/**
 * The settings handlers read. The composition root hands over its whole configuration (config.ts),
 * which has these and more; a feature whose handlers read a setting of their own adds it here by
 * declaration merging (episodes/queue-shares.ts: the work queue's shares), so this layer names
 * neither a feature nor the composition root.
 */
export interface HandlerSettings {
  readonly apiPrefix: string;
  readonly dataHosts: readonly string[];
  readonly validateResponses: boolean;
}

/** How a runner's report ends a commissioner session (the commissioner channel's failure kinds). */
export type CommissionerEndKind = "startup_timeout" | "crashed" | "disconnected" | "oversized";

export interface AppContext {
  readonly config: HandlerSettings;
  readonly store: Store;
  readonly auth: Authenticator;
  readonly readiness: readonly ReadinessCheck[];
  readonly blobs: BlobStore;
  readonly secrets: SecretBox;
  /** Domain events: publish on the bus; the hub feeds this replica's WebSocket subscribers. */
  readonly events: { readonly bus: EventBus; readonly hub: EventHub };
  /** Told when an episode reaches a final state (the composition root wires league play here). */
  readonly onEpisodeSettled: ((event: EpisodeSettledEvent) => void) | undefined;
  /** The sockets of the play sessions this replica relays (play/relay.ts), closed when one is ended. */
  readonly play: { readonly relay: { closeSession(id: string, reason: string): void } };
  /** Coworld commissioner sessions (leagues/commissioner/runner-relay.ts): a runner's report reaches the session's driver. */
  readonly commissioners: {
    reported(jobId: string, kind: CommissionerEndKind, why: string): void;
  };
  /** Failed attempts with backoff (sign-in), shared by replicas through Redis when configured. */
  readonly attempts: AttemptStore;
  openApi(): Record<string, unknown>;
  /**
   * The API's public base URL (http/public-address.ts): GAUNTLET_PUBLIC_URL, a trusted proxy's
   * forwarded scheme and host, or the listening address — never the request's Host header.
   */
  baseUrl(request: FastifyRequest): string;
}

export interface HandlerContext<O extends OperationDef> {
  readonly params: OperationParams<O>;
  readonly query: OperationQuery<O>;
  readonly body: OperationBody<O>;
  readonly identity: O["auth"] extends "required" ? AuthenticatedIdentity : Identity;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly app: AppContext;
}

export type Handler<O extends OperationDef> = (
  ctx: HandlerContext<O>,
) => Promise<OperationResponseInput<O> | typeof REPLIED>;

export type Handlers = { [K in OperationId]: Handler<Contract[K]> };

/** Declares the handlers of some operations with their contract types inferred. */
export function defineHandlers<K extends OperationId>(handlers: {
  [P in K]: Handler<Contract[P]>;
}): { [P in K]: Handler<Contract[P]> } {
  return handlers;
}
