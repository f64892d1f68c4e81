export { Gauntlet, GauntletClient, LiveEvents, createClient } from "./client.ts";
export type { CallArgs, ClientResources, ListOperationId } from "./client.ts";
export type { CallMeta } from "./call.ts";
export * from "./errors.ts";
export type {
  EventSubscription,
  LiveEvent,
  ReconnectOptions,
  SubscribeOptions,
  SubscriptionStatus,
} from "./events.ts";
export { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS } from "./options.ts";
export type {
  ClientOptions,
  FetchLike,
  OnRetry,
  RequestOptions,
  RetryEvent,
  RetryOptions,
  RetryPolicy,
  RetryReason,
} from "./options.ts";
export { allItems, pageShapeOf } from "./pagination.ts";
export type { PageShape } from "./pagination.ts";
export { resources } from "./resources.ts";
export type { ResourceName, Resources } from "./resources.ts";
export type {
  InputOf,
  ItemOf,
  OperationInput,
  OperationMethod,
  OperationResult,
  PageItem,
  ResultOf,
} from "./types.ts";
export type { BudgetSnapshot, OperationId } from "@gauntlet/core";
