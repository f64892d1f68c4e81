// What a caller passes to and gets from each operation, derived from the contract's schemas
// (no request or response type is written here by hand).
import type { z } from "zod";

import type { Contract, OperationDef, OperationId, OperationResponse } from "@gauntlet/core";

import type { RequestOptions } from "./options.ts";

type Simplify<T> = { [K in keyof T]: T[K] };

/** An object type with no fields. */
type NoFields = Record<never, never>;

/**
 * The caller's view of a params or query object: which keys exist and which are optional
 * come from the schema's input, the value types from its output — so a query boolean is
 * `true`, not the string `"true"` the server parses, and a query integer is a number.
 */
type CallerFields<S> = S extends z.ZodType
  ? { [K in keyof z.input<S>]: K extends keyof z.output<S> ? z.output<S>[K] : z.input<S>[K] }
  : NoFields;

type BodyField<O extends OperationDef> = O["body"] extends z.ZodType
  ? O["bodyOptional"] extends true
    ? { body?: z.input<O["body"]> }
    : { body: z.input<O["body"]> }
  : NoFields;

/** The lease's secret, for the operations that send it in a header (the runner work queue). */
type LeaseField<O extends OperationDef> = O["leaseTokenHeader"] extends string
  ? { lease_token: string }
  : NoFields;

/**
 * One argument per call: path parameters and query parameters by name, side by side, the
 * request body (when the operation has one) under `body`, and `lease_token` (sent as the
 * operation's lease header) where the operation takes one.
 */
export type OperationInput<O extends OperationDef> = Simplify<
  CallerFields<O["params"]> & CallerFields<O["query"]> & BodyField<O> & LeaseField<O>
>;

/** What a call resolves to: the parsed response; bytes for `bytes`, the Location for a 302. */
export type OperationResult<O extends OperationDef> = O["status"] extends 204
  ? undefined
  : O["status"] extends 302
    ? string
    : O["responseKind"] extends "bytes"
      ? Uint8Array
      : OperationResponse<O>;

type ItemOfArray<R> = R extends readonly (infer T)[] ? T : never;

/**
 * The element a list response yields, or never when the response is not a list shape of
 * docs/api.md.
 */
type PageItemOf<R, Q> = R extends readonly (infer T)[]
  ? T
  : R extends { entries: infer E; total_count: number }
    ? "offset" extends keyof Q
      ? ItemOfArray<E>
      : never
    : R extends { entries: infer E; next_cursor: unknown }
      ? "cursor" extends keyof Q
        ? ItemOfArray<E>
        : never
      : never;

export type PageItem<O extends OperationDef> = PageItemOf<
  NonNullable<OperationResponse<O>>,
  CallerFields<O["query"]>
>;

type CallSignature<O extends OperationDef, R> =
  NoFields extends OperationInput<O>
    ? (input?: OperationInput<O>, options?: RequestOptions) => R
    : (input: OperationInput<O>, options?: RequestOptions) => R;

/** Present on operations whose response is a list: every item, page after page. */
export interface Paginated<O extends OperationDef> {
  iterate: CallSignature<O, AsyncIterableIterator<PageItem<O>>>;
}

export type OperationMethod<O extends OperationDef> = CallSignature<
  O,
  Promise<OperationResult<O>>
> &
  ([PageItem<O>] extends [never] ? NoFields : Paginated<O>);

export type InputOf<Id extends OperationId> = OperationInput<Contract[Id]>;
export type ResultOf<Id extends OperationId> = OperationResult<Contract[Id]>;
export type ItemOf<Id extends OperationId> = PageItem<Contract[Id]>;
