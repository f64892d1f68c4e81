// Which server and which token a client uses: an explicit option first, then the
// environment (`GAUNTLET_SERVER`, `GAUNTLET_TOKEN`), then what the CLI's login saved.
// Nothing falls back to a built-in host (clients resolve the host,
// never hard-code it).
import type { Env } from "./config-dir.ts";
import { loadCredentials, type CredentialsLocation } from "./credentials.ts";
import { normalizeServerUrl } from "./server-url.ts";

export const SERVER_ENV = "GAUNTLET_SERVER";
export const TOKEN_ENV = "GAUNTLET_TOKEN";

export type ResolvedFrom = "explicit" | "env" | "credentials";

export interface ResolveOptions extends CredentialsLocation {
  /** Skip the saved credentials file (servers that embed a client, tests). */
  useSavedCredentials?: boolean;
}

export interface ResolvedServer {
  url: string;
  source: ResolvedFrom;
}

export interface ResolvedToken {
  token: string;
  source: ResolvedFrom;
}

function envOf(options: { env?: Env }): Env {
  return options.env ?? process.env;
}

function nonEmpty(value: string | undefined | null): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** The server to talk to, or null when none is configured anywhere. */
export function resolveServer(
  options: ResolveOptions & { explicit?: string | undefined } = {},
): ResolvedServer | null {
  if (nonEmpty(options.explicit))
    return { url: normalizeServerUrl(options.explicit), source: "explicit" };
  const fromEnv = envOf(options)[SERVER_ENV];
  if (nonEmpty(fromEnv)) return { url: normalizeServerUrl(fromEnv), source: "env" };
  if (options.useSavedCredentials === false) return null;
  const saved = loadCredentials(options).default_server;
  return nonEmpty(saved) ? { url: normalizeServerUrl(saved), source: "credentials" } : null;
}

/**
 * The token for `server`, or null (anonymous). `explicit: null` means "no token" and skips
 * the environment and the saved credentials.
 */
export function resolveToken(
  options: ResolveOptions & { server: string | null; explicit?: string | null | undefined },
): ResolvedToken | null {
  if (options.explicit === null) return null;
  if (nonEmpty(options.explicit)) return { token: options.explicit.trim(), source: "explicit" };
  const fromEnv = envOf(options)[TOKEN_ENV];
  if (nonEmpty(fromEnv)) return { token: fromEnv.trim(), source: "env" };
  if (options.useSavedCredentials === false || options.server === null) return null;
  const saved = loadCredentials(options).servers[normalizeServerUrl(options.server)];
  return saved ? { token: saved.token, source: "credentials" } : null;
}
