// Spec 8.3: budget headers are readable by browser clients from approved service origins and
// local-development origins; other origins get no CORS grant at all.
import cors from "@fastify/cors";
import { BUDGET_HEADER_NAMES } from "@gauntlet/core";
import type { FastifyInstance } from "fastify";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isAllowedOrigin(origin: string, approved: readonly string[]): boolean {
  if (approved.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

export async function installCors(app: FastifyInstance, approved: readonly string[]): Promise<void> {
  await app.register(cors, {
    origin: (origin, done) => done(null, origin !== undefined && isAllowedOrigin(origin, approved)),
    exposedHeaders: [...BUDGET_HEADER_NAMES, "retry-after", "x-request-id", "idempotent-replayed"],
    allowedHeaders: ["authorization", "content-type", "idempotency-key", "x-request-id"],
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    maxAge: 600,
  });
}
