// A resource embedded in another is whole (Game in League and League in
// Division; the hosted service's clients parse them so): a property that carries one must refer
// to its whole component, never to a smaller inline object.
import { describe, expect, it } from "vitest";

import { operations } from "./index.ts";
import { buildOpenApi } from "./openapi.ts";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

const WHOLE: Record<string, readonly string[]> = {
  league: ["League"],
  division: ["Division"],
  game: ["Game"],
  mod: ["Mod"],
  policy_version: ["PolicyVersionRef", "PolicyVersion"],
  player: ["PlayerRef", "Player"],
};
/** Documents that are not resources of the API (a coworld's own manifest names its game). */
const NOT_RESOURCES = new Set(["CoworldManifest"]);
/**
 * Properties whose public name says something else: the hosted service's join answer calls the
 * slot it gave `player` (its Python client parses `HostedGameJoinResponse.player` as a slot).
 */
const OTHER_MEANING: Record<string, string> = {
  "HostedGameJoinResponse.player": "HostedGamePlayer",
};

const doc = buildOpenApi(operations) as unknown as {
  paths: Record<string, Record<string, { responses: unknown }>>;
  components: { schemas: Record<string, Schema> };
};
const schemas = doc.components.schemas;

/** The components some response carries, directly or inside another (request bodies left out). */
function inResponses(): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const name = value.replace("#/components/schemas/", "");
        if (!found.has(name)) {
          found.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  for (const byMethod of Object.values(doc.paths))
    for (const op of Object.values(byMethod)) visit(op.responses);
  return found;
}

/** Every `name → schema` property, anywhere in a component, with the path that reaches it. */
function properties(
  schema: Schema,
  path: string,
  out: [string, string, Schema][] = [],
): [string, string, Schema][] {
  for (const [name, value] of Object.entries(schema.properties ?? {})) {
    out.push([`${path}.${name}`, name, value]);
    properties(value, `${path}.${name}`, out);
  }
  for (const part of [
    schema.items,
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ])
    if (part) properties(part, path, out);
  return out;
}

/** The object alternatives of a property: its $refs and inline objects (null and scalars left out). */
function objectForms(schema: Schema): Schema[] {
  const alternatives = schema.anyOf ?? schema.oneOf ?? [schema];
  return alternatives.filter(
    (s) => s.$ref !== undefined || s.type === "object" || s.properties !== undefined,
  );
}

describe("embedded resources", () => {
  const carried = inResponses();
  const embedded = Object.entries(schemas)
    .filter(([name]) => carried.has(name) && !NOT_RESOURCES.has(name))
    .flatMap(([name, schema]) => properties(schema, name))
    .filter(([path, prop]) => prop in WHOLE && !(path in OTHER_MEANING));

  it("finds the embeddings it checks (leagues, divisions, games, policy versions)", () => {
    const paths = embedded.map(([path]) => path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "Division.league",
        "League.game",
        "LeaguePolicyMembership.division",
        "Round.division",
        "CompetitionEvent.league",
        "LeagueSubmission.policy_version",
      ]),
    );
  });

  it.each(Object.entries(OTHER_MEANING))("%s keeps its public meaning (%s)", (path, component) => {
    const [owner = "", prop = ""] = path.split(".");
    const schema = schemas[owner]?.properties?.[prop];
    expect(schema?.$ref).toBe(`#/components/schemas/${component}`);
  });

  it.each(embedded)("%s refers to the whole resource", (_path, prop, schema) => {
    const allowed = WHOLE[prop] ?? [];
    for (const form of objectForms(schema)) {
      expect(form.$ref, "an inline object instead of the whole resource").toBeDefined();
      expect(allowed).toContain(form.$ref?.replace("#/components/schemas/", ""));
    }
  });
});
