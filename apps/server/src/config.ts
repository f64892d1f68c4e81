// Server configuration: command-line options first, then the environment, then defaults.
import { resolve } from "node:path";

import type { S3BlobStoreOptions } from "./blobs/s3-blob-store.ts";
import { queueSharesFrom, type QueueShares } from "./episodes/queue-shares.ts";
import { parsePublicUrl, trustedProxyList } from "./http/public-address.ts";
import type { Env } from "./shared/environment.ts";

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema for Gauntlet's tables (created when missing). */
  databaseSchema: string | undefined;
  redisUrl: string | undefined;
  /** The API's path prefix on the data host(s). */
  apiPrefix: string;
  /** Host names that serve the API under `apiPrefix`; every other host serves it at the root. */
  dataHosts: string[];
  logLevel: string;
  /** Browser origins allowed to call the API and read its budget headers (local development origins always are). */
  corsOrigins: string[];
  /**
   * Check every response against the contract's zod schema before sending (GAUNTLET_VALIDATE_RESPONSES=true;
   * on in tests). Off by default: a response is serialised by a function compiled from the contract's JSON
   * Schema either way, and a full zod pass on every reply costs more than the rest of a read.
   */
  validateResponses: boolean;
  /** A log line per request at info level (GAUNTLET_ACCESS_LOG=true, or log level debug/trace). */
  accessLog: boolean;
  /**
   * The API's public base URL (GAUNTLET_PUBLIC_URL): every absolute address the server hands out
   * starts with it. Unset: a trusted proxy's X-Forwarded-Proto/-Host, else the listening address.
   */
  publicUrl: string | undefined;
  /** Peers whose X-Forwarded-* headers are believed (GAUNTLET_TRUSTED_PROXIES: IPs and CIDR ranges). */
  trustedProxies: string[];
  /** Where blobs live: `blobs/` in the data directory, or an S3-compatible bucket (GAUNTLET_BLOB_STORE=s3). */
  blobStore: { kind: "directory" } | ({ kind: "s3" } & S3BlobStoreOptions);
  /** The work queue's class weights and per-user cap (GAUNTLET_QUEUE_WEIGHT_*, GAUNTLET_QUEUE_USER_CAP). */
  queueShares: QueueShares;
}

export type { Env };

export const DEFAULT_PORT = 8787;

function list(value: string | undefined, fallback: string[]): string[] {
  if (!value) return fallback;
  return value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function schemaName(value: string | undefined): string | undefined {
  if (value !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(value))
    throw new Error(`invalid database schema name: ${value} (lowercase letters, digits, _)`);
  return value;
}

/** GAUNTLET_BLOB_STORE=s3 and its GAUNTLET_S3_* settings; every missing one is named at once. */
function blobStoreFrom(env: Env): ServerConfig["blobStore"] {
  const kind = env.GAUNTLET_BLOB_STORE?.trim() || "directory";
  if (kind === "directory") return { kind };
  if (kind !== "s3")
    throw new Error(
      `GAUNTLET_BLOB_STORE must be directory or s3, not ${JSON.stringify(env.GAUNTLET_BLOB_STORE)}`,
    );
  const required = [
    "GAUNTLET_S3_ENDPOINT",
    "GAUNTLET_S3_BUCKET",
    "GAUNTLET_S3_ACCESS_KEY_ID",
    "GAUNTLET_S3_SECRET_ACCESS_KEY",
  ] as const;
  const missing = required.filter((name) => !env[name]?.trim());
  if (missing.length) throw new Error(`GAUNTLET_BLOB_STORE=s3 needs ${missing.join(", ")}`);
  const endpoint = env.GAUNTLET_S3_ENDPOINT?.trim() ?? "";
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol))
    throw new Error(
      `GAUNTLET_S3_ENDPOINT must be an http(s) address, not ${JSON.stringify(endpoint)}`,
    );
  const pathStyle = env.GAUNTLET_S3_PATH_STYLE?.trim() ?? "true";
  if (pathStyle !== "true" && pathStyle !== "false")
    throw new Error(
      `GAUNTLET_S3_PATH_STYLE must be true or false, not ${JSON.stringify(pathStyle)}`,
    );
  return {
    kind,
    endpoint,
    bucket: env.GAUNTLET_S3_BUCKET?.trim() ?? "",
    region: env.GAUNTLET_S3_REGION?.trim() || "us-east-1",
    accessKeyId: env.GAUNTLET_S3_ACCESS_KEY_ID?.trim() ?? "",
    secretAccessKey: env.GAUNTLET_S3_SECRET_ACCESS_KEY?.trim() ?? "",
    ...(env.GAUNTLET_S3_PREFIX?.trim() ? { prefix: env.GAUNTLET_S3_PREFIX.trim() } : {}),
    pathStyle: pathStyle === "true",
  };
}

/** Checked at start so that a typo fails loudly rather than trusting nobody (or everybody). */
function trustedProxies(entries: string[]): string[] {
  trustedProxyList(entries);
  return entries;
}

export function resolveConfig(
  options: Partial<ServerConfig>,
  env: Env = process.env,
): ServerConfig {
  const port = options.port ?? (env.PORT ? Number(env.PORT) : DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid port: ${env.PORT ?? String(options.port)}`);
  const prefix = options.apiPrefix ?? env.GAUNTLET_API_PREFIX ?? "/observatory";
  if (!/^\/[a-z0-9._~-]+(\/[a-z0-9._~-]+)*$/i.test(prefix))
    throw new Error(`invalid API prefix: ${prefix} (expected e.g. /observatory)`);
  return {
    port,
    host: options.host ?? env.HOST ?? "127.0.0.1",
    dataDir: resolve(options.dataDir ?? env.GAUNTLET_DATA_DIR ?? ".gauntlet"),
    databaseUrl: options.databaseUrl ?? (env.DATABASE_URL || undefined),
    databaseSchema: schemaName(
      options.databaseSchema ?? (env.GAUNTLET_DATABASE_SCHEMA || undefined),
    ),
    redisUrl: options.redisUrl ?? (env.REDIS_URL || undefined),
    apiPrefix: prefix,
    dataHosts: options.dataHosts ?? list(env.GAUNTLET_DATA_HOSTS, ["localhost"]),
    logLevel: options.logLevel ?? env.GAUNTLET_LOG_LEVEL ?? "info",
    corsOrigins:
      options.corsOrigins ??
      (env.GAUNTLET_CORS_ORIGINS
        ? env.GAUNTLET_CORS_ORIGINS.split(",")
            .map((o) => o.trim())
            .filter(Boolean)
        : []),
    validateResponses: options.validateResponses ?? env.GAUNTLET_VALIDATE_RESPONSES === "true",
    accessLog: options.accessLog ?? env.GAUNTLET_ACCESS_LOG === "true",
    blobStore: options.blobStore ?? blobStoreFrom(env),
    queueShares: options.queueShares ?? queueSharesFrom(env),
    publicUrl: parsePublicUrl(options.publicUrl ?? env.GAUNTLET_PUBLIC_URL),
    trustedProxies: trustedProxies(
      options.trustedProxies ?? list(env.GAUNTLET_TRUSTED_PROXIES, []),
    ),
  };
}
