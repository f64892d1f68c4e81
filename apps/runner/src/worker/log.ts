// The runner's own log: one line per event, as text for people or JSON for collectors (and
// for the benchmark, which reads the timings of each job). Every line passes the redactor.
// Levels: `debug` each runnable's start and exit, `info` one line per job, `warn` and `error`
// what needs attention; lines below the chosen level are not written.
import type { Redactor } from "./redactor.ts";

export type LogFormat = "text" | "json";
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface RunnerLog {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LogOptions {
  format: LogFormat;
  /** The lowest level written (default `info`). */
  level?: LogLevel;
  redactor: Redactor;
  write: (line: string) => void;
  now?: () => Date;
}

function textValue(value: string | number | boolean | null): string {
  const text = String(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

export function createLog(options: LogOptions): RunnerLog {
  const now = options.now ?? (() => new Date());
  const lowest = LOG_LEVELS.indexOf(options.level ?? "info");
  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(level) < lowest) return;
    const clean: Record<string, string | number | boolean | null> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      clean[key] = typeof value === "string" ? options.redactor.redact(value) : value;
    }
    const msg = options.redactor.redact(message);
    const time = now().toISOString();
    if (options.format === "json") {
      options.write(`${JSON.stringify({ time, level, msg, ...clean })}\n`);
      return;
    }
    const tail = Object.entries(clean).map(([key, value]) => `${key}=${textValue(value)}`);
    options.write(`${time} ${level.padEnd(5)} ${[msg, ...tail].join(" ")}\n`);
  };
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
  };
}
