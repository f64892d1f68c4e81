import { describe, expect, it } from "vitest";

import { contract, operations } from "./index.ts";
import { fillPath, routerPath } from "./operation.ts";

describe("contract paths", () => {
  it("turns every {param} into a router parameter, digits included", () => {
    expect(routerPath("/v2/runner/blobs/{sha256}")).toBe("/v2/runner/blobs/:sha256");
    for (const op of operations) expect(routerPath(op.path, op.restOfPath)).not.toMatch(/[{}]/);
    expect(routerPath("/v2/play-modules/{play_module_id}/files/{file_path}", "file_path")).toBe(
      "/v2/play-modules/:play_module_id/files/*",
    );
  });

  it("escapes a literal colon (an action) and stops the parameter before it", () => {
    expect(routerPath("/v2/tournaments/{tournament_id}:lock")).toBe(
      "/v2/tournaments/:tournament_id(^[^:]+)::lock",
    );
    expect(routerPath("/v2/tournaments/{tournament_id}")).toBe("/v2/tournaments/:tournament_id");
    expect(fillPath("/v2/tournaments/{tournament_id}:start", { tournament_id: "tour_1" })).toBe(
      "/v2/tournaments/tour_1:start",
    );
  });

  it("fills and encodes parameters, and names a missing one", () => {
    expect(
      fillPath("/v2/coworlds/secrets/{coworld_name}/{secret_name}", {
        coworld_name: "a b",
        secret_name: "K",
      }),
    ).toBe("/v2/coworlds/secrets/a%20b/K");
    expect(() => fillPath("/v2/leagues/{league_id}", {})).toThrow(
      "missing path parameter league_id",
    );
  });

  it("declares each path parameter in the operation's params schema", () => {
    for (const op of operations) {
      const names = [...op.path.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1]);
      const declared = op.params ? Object.keys(op.params.shape) : [];
      expect(declared.sort(), op.id).toEqual(names.sort());
    }
  });

  it("has unique ids and unique method + path pairs", () => {
    const ops = operations;
    expect(new Set(ops.map((o) => o.id)).size).toBe(ops.length);
    expect(new Set(ops.map((o) => `${o.method} ${o.path}`)).size).toBe(ops.length);
    for (const [key, op] of Object.entries(contract)) expect(op.id).toBe(key);
  });
});
