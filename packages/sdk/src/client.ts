// The client: one method per contract operation, grouped as resources.ts names them,
// each typed from the contract and parsing its response with the contract's schema.
import {
  contract,
  type BudgetSnapshot,
  type Contract,
  type OperationDef,
  type OperationId,
} from "@gauntlet/core";

import { callOperation, type CallMeta, type CallOutcome } from "./call.ts";
import { eventsUrl, subscribe, type EventSubscription, type SubscribeOptions } from "./events.ts";
import {
  resolveClientConfig,
  resolveRequestConfig,
  type ClientConfig,
  type ClientOptions,
  type RequestConfig,
  type RequestOptions,
} from "./options.ts";
import { iterateItems, pageShapeOf } from "./pagination.ts";
import { resources, type Resources } from "./resources.ts";
import type { InputOf, ItemOf, OperationMethod, ResultOf } from "./types.ts";

type GroupName = Exclude<Resources[OperationId][0], null>;
type OperationsIn<G> = {
  [Id in OperationId]: Resources[Id][0] extends G ? Id : never;
}[OperationId];
type GroupMethods<G> = {
  readonly [Id in OperationsIn<G> as Resources[Id][1]]: OperationMethod<Contract[Id]>;
};

/** `client.<group>.<method>` for every operation, and the ungrouped ones on the client. */
export type ClientResources = { readonly [G in GroupName]: GroupMethods<G> } & GroupMethods<null>;

/** The arguments of a call: the input may be left out when all of it is optional. */
export type CallArgs<Id extends OperationId> =
  Record<never, never> extends InputOf<Id>
    ? [input?: InputOf<Id>, options?: RequestOptions]
    : [input: InputOf<Id>, options?: RequestOptions];

/** Operations whose response is a list (pagination.ts). */
export type ListOperationId = {
  [Id in OperationId]: [ItemOf<Id>] extends [never] ? never : Id;
}[OperationId];

type Input = Readonly<Record<string, unknown>> | undefined;

type ConnectionOptions = Pick<RequestOptions, "baseUrl" | "token">;

export class LiveEvents {
  readonly #resolve: (options: ConnectionOptions) => RequestConfig;
  constructor(resolve: (options: ConnectionOptions) => RequestConfig) {
    this.#resolve = resolve;
  }

  /** Subscribes to topics such as `division:{id}`, `league:{id}`, `episode-requests:mine`. */
  subscribe(
    topics: readonly string[],
    options: SubscribeOptions & ConnectionOptions,
  ): EventSubscription {
    const config = this.#resolve({ baseUrl: options.baseUrl, token: options.token });
    return subscribe({ url: eventsUrl(config.baseUrl), token: config.token }, topics, options);
  }
}

export class GauntletClient {
  readonly #config: ClientConfig;
  #lastBudget: BudgetSnapshot | null = null;
  /** Live events over the WebSocket `GET /v2/events`. */
  readonly events: LiveEvents;

  constructor(options: ClientOptions = {}) {
    this.#config = resolveClientConfig(options);
    this.events = new LiveEvents((options) => resolveRequestConfig(this.#config, options));
    installResources(this, (op, input, requestOptions) =>
      this.#call(op, input, requestOptions).then((outcome) => outcome.data),
    );
  }

  /** The server this client talks to, or null when none is configured. */
  get baseUrl(): string | null {
    return this.#config.baseUrl;
  }

  /** The budget headers of the most recent response that carried them. */
  get lastBudget(): BudgetSnapshot | null {
    return this.#lastBudget;
  }

  /** Calls an operation by its contract id. */
  async request<Id extends OperationId>(id: Id, ...args: CallArgs<Id>): Promise<ResultOf<Id>> {
    const [input, options] = args;
    const outcome = await this.#call(contract[id], input, options);
    // Checked against the operation's response schema in decode.ts.
    return outcome.data as ResultOf<Id>;
  }

  /** Like `request`, with the status, headers, request id, budget and tries of the response. */
  async requestWithMeta<Id extends OperationId>(
    id: Id,
    ...args: CallArgs<Id>
  ): Promise<{ data: ResultOf<Id>; meta: CallMeta }> {
    const [input, options] = args;
    const outcome = await this.#call(contract[id], input, options);
    return { data: outcome.data as ResultOf<Id>, meta: outcome.meta };
  }

  /** Every item of a list operation, page after page. */
  iterate<Id extends ListOperationId>(
    id: Id,
    ...args: CallArgs<Id>
  ): AsyncIterableIterator<ItemOf<Id>> {
    const [input, options] = args;
    return this.#iterate(contract[id], input, options) as AsyncIterableIterator<ItemOf<Id>>;
  }

  #iterate(
    op: OperationDef,
    input: Input,
    options: RequestOptions | undefined,
  ): AsyncIterableIterator<unknown> {
    const shape = pageShapeOf(op);
    if (shape === null) throw new TypeError(`${op.id} does not return a list`);
    return iterateItems(
      shape,
      (page) => this.#call(op, page, options).then((outcome) => outcome.data),
      input,
    );
  }

  async #call(op: OperationDef, input: Input, options: RequestOptions = {}): Promise<CallOutcome> {
    return callOperation(op, input, {
      config: resolveRequestConfig(this.#config, options),
      options,
      onBudget: (snapshot) => {
        this.#lastBudget = snapshot;
      },
    });
  }
}

type Invoke = (
  op: OperationDef,
  input: Input,
  options: RequestOptions | undefined,
) => Promise<unknown>;

function installResources(client: GauntletClient, invoke: Invoke): void {
  const groups = new Map<string, Record<string, unknown>>();
  for (const [id, [group, name]] of Object.entries(resources) as [
    OperationId,
    Resources[OperationId],
  ][]) {
    const op: OperationDef = contract[id];
    const method = (input?: Input, options?: RequestOptions) => invoke(op, input, options);
    const shape = pageShapeOf(op);
    if (shape !== null) {
      Object.defineProperty(method, "iterate", {
        value: (input?: Input, options?: RequestOptions) =>
          iterateItems(shape, (page) => invoke(op, page, options), input),
      });
    }
    let target: object;
    if (group === null) target = client;
    else {
      let methods = groups.get(group);
      if (!methods) {
        const existing: unknown = Reflect.get(client, group);
        if (existing instanceof LiveEvents) {
          // The events group holds `subscribe` already; its HTTP operations join it.
          methods = existing as unknown as Record<string, unknown>;
        } else {
          if (existing !== undefined)
            throw new Error(`resources.ts: group "${group}" would hide a member of the client`);
          methods = {};
          Object.defineProperty(client, group, { value: methods, enumerable: true });
        }
        groups.set(group, methods);
      }
      target = methods;
    }
    if (name in target)
      throw new Error(`resources.ts: "${group === null ? "" : `${group}.`}${name}" is named twice`);
    Object.defineProperty(target, name, { value: method, enumerable: true });
  }
  for (const methods of groups.values())
    if (!(methods instanceof LiveEvents)) Object.freeze(methods);
}

type TopLevelNames = {
  [Id in OperationId]: Resources[Id][0] extends null ? Resources[Id][1] : Resources[Id][0];
}[OperationId];
// A resource name that would hide a member of the client is a compile error (`events` is
// the one group that shares its object with the client's own member).
const _noClash: [Extract<TopLevelNames, Exclude<keyof GauntletClient, "events">>] extends [never]
  ? true
  : never = true;
// …and so is an operation in `events` named like a method of LiveEvents.
type EventsNames = {
  [Id in OperationId]: Resources[Id][0] extends "events" ? Resources[Id][1] : never;
}[OperationId];
const _noEventsClash: [Extract<EventsNames, keyof LiveEvents>] extends [never] ? true : never =
  true;

/** The client, with its resources. `new Gauntlet(options)` and `createClient(options)` are the same. */
export type Gauntlet = GauntletClient & ClientResources;
export const Gauntlet = GauntletClient as unknown as new (options?: ClientOptions) => Gauntlet;

export function createClient(options: ClientOptions = {}): Gauntlet {
  return new Gauntlet(options);
}
