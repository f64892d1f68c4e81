import { defineHandlers } from "../http/handler.ts";
import { budgetsPage, type CapacityRow } from "./budgets-page.ts";
import { DOCS_CONTENT_SECURITY_POLICY, docsPage, docsScript } from "./docs-page.ts";

export interface BudgetsInfo {
  mode: string;
  rows: readonly CapacityRow[];
}

/** The liveness probe's answer: this process answers (http/probe-answer.ts sends it before routing). */
export const LIVENESS = { status: "ok" } as const;

export function serviceHandlers(budgets: () => BudgetsInfo) {
  return defineHandlers({
    getOpenApi: async ({ app }) => app.openApi(),
    getDocs: async ({ reply }) => {
      reply.header("content-security-policy", DOCS_CONTENT_SECURITY_POLICY);
      return docsPage();
    },
    getDocsScript: async () => docsScript(),
    getBudgetsDoc: async () => {
      const info = budgets();
      return budgetsPage(info.rows, info.mode);
    },
    healthz: async () => LIVENESS,
    readyz: async ({ app, reply }) => {
      const checks: Record<string, { ok: boolean; error?: string }> = {};
      await Promise.all(
        app.readiness.map(async (c) => {
          try {
            await c.check();
            checks[c.name] = { ok: true };
          } catch (error) {
            checks[c.name] = {
              ok: false,
              error: error instanceof Error ? error.message : String(error),
            };
          }
        }),
      );
      // Unready (503, take it out of the balancer) only when a dependency the API cannot serve
      // without fails; degraded (200) when only an optional one does.
      const failed = app.readiness.filter((c) => checks[c.name]?.ok === false);
      if (failed.some((c) => c.optional !== true)) {
        reply.code(503);
        return { status: "not_ready" as const, checks };
      }
      return { status: failed.length > 0 ? ("degraded" as const) : ("ready" as const), checks };
    },
  });
}
