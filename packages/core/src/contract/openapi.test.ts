import { describe, expect, it } from "vitest";
import { z } from "zod";

import { operations } from "./index.ts";
import { buildOpenApi } from "./openapi.ts";
import { defineOperation, type OperationDef } from "./operation.ts";

interface Parameter {
  name: string;
  in: string;
  schema?: { pattern?: string };
}
interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters: Parameter[];
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
}
interface Document {
  info: { license?: { name: string; identifier?: string } };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const build = (ops: readonly OperationDef[]) => buildOpenApi(ops) as unknown as Document;
const doc = build(operations);
const allOperations = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod));

/** The pattern a path parameter of this path declares, from any of its operations. */
function patternOf(document: Document, path: string, name: string): RegExp | null {
  for (const op of Object.values(document.paths[path] ?? {})) {
    const pattern = op.parameters.find((p) => p.in === "path" && p.name === name)?.schema?.pattern;
    if (pattern) return new RegExp(pattern);
  }
  return null;
}

/**
 * Pairs of paths one address could reach both of (Redocly's rule: the same number of segments
 * and of parameters, equal literals), unless at some segment a parameter's pattern rejects
 * the other path's literal there.
 */
function ambiguousPairs(document: Document): [string, string][] {
  const paths = Object.keys(document.paths);
  const isParam = (segment: string) => /^\{.+\}$/.test(segment);
  const found: [string, string][] = [];
  for (const [i, a] of paths.entries()) {
    for (const b of paths.slice(i + 1)) {
      const sa = a.split("/");
      const sb = b.split("/");
      if (sa.length !== sb.length || sa.filter(isParam).length !== sb.filter(isParam).length)
        continue;
      const separated = sa.some((x, k) => {
        const y = sb[k] ?? "";
        if (!isParam(x) && !isParam(y)) return x !== y;
        if (isParam(x) && isParam(y)) return false;
        const [param, literal, path] = isParam(x) ? [x, y, a] : [y, x, b];
        const pattern = patternOf(document, path, param.slice(1, -1));
        return pattern !== null && !pattern.test(literal);
      });
      if (!separated) found.push([a, b]);
    }
  }
  return found;
}

describe("the OpenAPI document", () => {
  it("declares an error answer (4xx) for every operation, derived from its auth and inputs", () => {
    for (const op of allOperations)
      expect(
        Object.keys(op.responses).some((s) => s.startsWith("4")),
        op.operationId,
      ).toBe(true);
    const byId = new Map(allOperations.map((op) => [op.operationId, op]));
    // Inputs give 422 (and 404 for a path parameter), a token gives 401 and 429, a write 403, a create 409.
    expect(Object.keys(byId.get("getLeague")?.responses ?? {}).sort()).toEqual([
      "200",
      "401",
      "404",
      "422",
      "429",
    ]);
    expect(Object.keys(byId.get("createPlayer")?.responses ?? {}).sort()).toEqual([
      "201",
      "401",
      "403",
      "409",
      "422",
      "429",
    ]);
    // Nothing to validate and no token read: only an unreadable request is refused.
    expect(Object.keys(byId.get("healthz")?.responses ?? {}).sort()).toEqual(["200", "4XX"]);
  });

  it("declares the redirect of the command line's sign-in with its Location", () => {
    const submit = doc.paths["/cli-login"]?.post;
    expect(submit?.responses["302"]?.headers).toHaveProperty("Location");
  });

  it("lists exactly the groups that have operations, each with a description", () => {
    const used = new Set(allOperations.flatMap((op) => op.tags));
    expect(new Set(doc.tags.map((t) => t.name))).toEqual(used);
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\S/);
    const only = build(operations.filter((op) => op.tag === "Service"));
    expect(only.tags.map((t) => t.name)).toEqual(["Service"]);
  });

  it("keeps summaries plain text (Markdown belongs in descriptions)", () => {
    for (const op of allOperations) expect(op.summary, op.operationId).not.toContain("`");
    expect(doc.paths["/players/{player_id}/login"]?.post?.summary).toBe(
      "A 24-hour ply_ token acting as the player",
    );
  });

  it("names its license", () => {
    expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
  });

  it("has no pair of paths that one address could reach both of", () => {
    expect(ambiguousPairs(doc)).toEqual([]);
    // The pair that looks ambiguous by templates alone is kept apart by coworld_id's pattern…
    expect(
      patternOf(doc, "/v2/coworlds/{coworld_id}/certification", "coworld_id")?.test("secrets"),
    ).toBe(false);
    // …and without a pattern it would be reported.
    const loose = build([
      defineOperation({
        id: "a",
        method: "GET",
        path: "/v2/things/{thing_id}/state",
        tag: "Service",
        summary: "a",
        auth: "none",
        complexity: 1,
        params: z.object({ thing_id: z.string() }),
        status: 200,
        response: z.string(),
      }),
      defineOperation({
        id: "b",
        method: "GET",
        path: "/v2/things/secrets/{name}",
        tag: "Service",
        summary: "b",
        auth: "none",
        complexity: 1,
        params: z.object({ name: z.string() }),
        status: 200,
        response: z.string(),
      }),
    ]);
    expect(ambiguousPairs(loose)).toEqual([
      ["/v2/things/{thing_id}/state", "/v2/things/secrets/{name}"],
    ]);
  });
});
