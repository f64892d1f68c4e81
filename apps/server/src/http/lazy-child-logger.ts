// Fastify makes a child logger for every request, bound to its request id. Most requests never
// log (access logs are off unless asked for), so the pino child is made on the first line a
// request writes, not before.
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildOptions = Parameters<FastifyBaseLogger["child"]>[1];
type LogArgs = Parameters<FastifyBaseLogger["info"]>;

// Methods live on the prototype, so a request that never logs allocates one small object.
class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): FastifyBaseLogger["level"] {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: FastifyBaseLogger["level"]) {
    this.#real().level = level;
  }

  info(...args: LogArgs): void {
    this.#real().info(...args);
  }
  error(...args: LogArgs): void {
    this.#real().error(...args);
  }
  warn(...args: LogArgs): void {
    this.#real().warn(...args);
  }
  debug(...args: LogArgs): void {
    this.#real().debug(...args);
  }
  trace(...args: LogArgs): void {
    this.#real().trace(...args);
  }
  fatal(...args: LogArgs): void {
    this.#real().fatal(...args);
  }
  silent(...args: LogArgs): void {
    this.#real().silent(...args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

export function createLazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions = {},
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options);
}

/** For Fastify's `childLoggerFactory` option. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => createLazyChildLogger(logger, bindings, options);
