// What every command shares: the global options, the SDK client (loaded on first use, so
// `--help` never pays for it), and argument checks that name the argument in their error.
import type { Command } from "commander";

import type { IdKind } from "@gauntlet/core";
import type { Gauntlet, RetryEvent } from "@gauntlet/sdk";

import { CliError, EXIT, HOW_TO_CONFIGURE } from "./exit-codes.ts";
import { startSpinner } from "./spinner.ts";

export interface GlobalOptions {
  server?: string;
  json?: boolean;
  elevated?: boolean;
}

export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export function wantsJson(command: Command): boolean {
  return globals(command).json === true;
}

/** The server a command talks to: --server, GAUNTLET_SERVER, else the last `auth login`. */
export async function serverOf(command: Command): Promise<string> {
  const { resolveServer } = await import("@gauntlet/core");
  const resolved = resolveServer({ explicit: globals(command).server });
  if (!resolved)
    throw new CliError(`no Gauntlet server configured: ${HOW_TO_CONFIGURE}`, EXIT.auth);
  return resolved.url;
}

/** A 429 is waited out by the SDK; say so on a terminal while it waits. */
function onRetry(event: RetryEvent): void {
  const seconds = Math.ceil(event.delayMs / 1000);
  const why =
    event.reason === "shared_budget" || event.reason === "retry_after"
      ? "rate limited by the server"
      : "the server did not answer";
  const spinner = startSpinner(`${why}; retrying in ${seconds}s (try ${event.attempt + 1})`);
  setTimeout(() => spinner.stop(), event.delayMs).unref();
}

export interface ClientChoice {
  /** Send no token (sign-in). */
  anonymous?: boolean;
  /** Use this token instead of the resolved one. */
  token?: string;
}

export async function clientOf(command: Command, choice: ClientChoice = {}): Promise<Gauntlet> {
  const baseUrl = await serverOf(command);
  const { createClient } = await import("@gauntlet/sdk");
  return createClient({
    baseUrl,
    onRetry,
    // An admin's powers are asked for per command line, never by default.
    elevated: globals(command).elevated === true,
    ...(choice.anonymous
      ? { token: null }
      : choice.token !== undefined
        ? { token: choice.token }
        : {}),
  });
}

/** Checks an id argument before any request, naming the argument and the expected form. */
export async function checkId(kind: IdKind, value: string, label: string): Promise<string> {
  const { idPattern, idPrefixes } = await import("@gauntlet/core");
  const trimmed = value.trim();
  if (!idPattern(kind).test(trimmed)) {
    throw new CliError(
      `${label}: '${value}' is not a valid id (expected ${idPrefixes[kind]}<uuid>, e.g. ${idPrefixes[kind]}00000000-0000-4000-8000-000000000000)`,
      EXIT.usage,
    );
  }
  return trimmed;
}

/** A policy version id is a bare UUID. */
export async function checkUuid(value: string, label: string): Promise<string> {
  const { uuidPattern } = await import("@gauntlet/core");
  if (!uuidPattern.test(value.trim()))
    throw new CliError(`${label}: '${value}' is not a valid id (expected a UUID)`, EXIT.usage);
  return value.trim();
}

export function parsePositiveInt(value: string, label: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`${label}: expected a positive whole number, got '${value}'`, EXIT.usage);
  return n;
}

/** A JSON object given on the command line (game config overrides). */
export function parseJsonObject(text: string, label: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CliError(`${label}: expected a JSON object, got '${text}'`, EXIT.usage);
  return value as Record<string, unknown>;
}
