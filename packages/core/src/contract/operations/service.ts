// Self-description and probes (docs/api.md, "Groups").
import { z } from "zod";

import { defineOperation } from "../operation.ts";

export const HealthStatus = z
  .object({
    status: z.enum(["ok", "ready", "degraded", "not_ready"]),
    checks: z
      .record(z.string(), z.object({ ok: z.boolean(), error: z.string().optional() }))
      .optional(),
  })
  .meta({ id: "HealthStatus" });

export const serviceOperations = {
  getOpenApi: defineOperation({
    id: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    tag: "Service",
    summary: "Machine-readable OpenAPI 3.1 description",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.record(z.string(), z.unknown()),
  }),
  getDocs: defineOperation({
    id: "getDocs",
    method: "GET",
    path: "/docs",
    tag: "Service",
    summary: "Interactive reference",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "html",
  }),
  getDocsScript: defineOperation({
    id: "getDocsScript",
    method: "GET",
    path: "/docs/scalar.js",
    tag: "Service",
    summary: "The interactive reference's script (served locally, no CDN)",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "javascript",
  }),
  getBudgetsDoc: defineOperation({
    id: "getBudgetsDoc",
    method: "GET",
    path: "/docs/rate-limits",
    tag: "Service",
    summary: "How the shared budgets work (linked from every 429)",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "html",
  }),
  healthz: defineOperation({
    id: "healthz",
    method: "GET",
    path: "/healthz",
    tag: "Service",
    summary: "Liveness",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: HealthStatus,
  }),
  readyz: defineOperation({
    id: "readyz",
    method: "GET",
    path: "/readyz",
    tag: "Service",
    summary: "Readiness: the store (and Redis when configured) answer",
    description:
      "`ready` when every dependency answers; `degraded` (still 200: the API serves) when only Redis does not (budgets fail open, token revocation costs a lookup per request, live events arrive by polling); 503 `not_ready` with the failing check when the database does not answer.",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: HealthStatus,
  }),
} as const;
