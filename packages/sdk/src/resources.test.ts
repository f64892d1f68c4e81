import { describe, expect, it } from "vitest";

import { contract, type OperationId } from "@gauntlet/core";

import { createClient } from "./client.ts";
import { resources } from "./resources.ts";

describe("resources table", () => {
  it("names every contract operation once, and each name is distinct", () => {
    expect(Object.keys(resources).sort()).toEqual(Object.keys(contract).sort());
    const names = Object.values(resources).map(([group, method]) => `${group ?? ""}.${method}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it("puts every operation on the client where the table says", () => {
    const client = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: "http://gauntlet.invalid",
    });
    for (const [id, [group, method]] of Object.entries(resources)) {
      const holder: unknown =
        group === null ? client : (client as unknown as Record<string, unknown>)[group];
      expect(typeof (holder as Record<string, unknown>)[method], `${id}`).toBe("function");
    }
  });

  it("can put path, query and body side by side in one input: no operation has a name twice or a parameter called body", () => {
    for (const id of Object.keys(contract) as OperationId[]) {
      const op = contract[id];
      const params = "params" in op && op.params ? Object.keys(op.params.shape) : [];
      const query = "query" in op && op.query ? Object.keys(op.query.shape) : [];
      const all = [...params, ...query];
      expect(new Set(all).size, id).toBe(all.length);
      expect(all, id).not.toContain("body");
    }
  });
});
