// fast-check arbitraries derived from the JSON schemas of the served /openapi.json, so the
// fuzzing covers whatever operations the contract has, with values that are mostly of the
// right shape (to reach the handlers) and sometimes hostile (to reach the error paths).
import fc from "fast-check";

export type JsonSchema = Record<string, unknown>;
export type Components = Record<string, JsonSchema>;

/** Values no schema expects: huge and negative numbers, NUL bytes, odd Unicode, traversal. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.constantFrom(
  -1,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER * 1024,
  0.0000001,
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\u202Eevil",
  "🏳️‍🌈".repeat(50),
  "../../../../etc/passwd",
  "%2e%2e%2f%2e%2e%2f",
  "'; DROP TABLE users; --",
  "x".repeat(70_000),
  "",
  true,
  null,
  [],
  {},
);

function ref(schema: JsonSchema, components: Components): JsonSchema {
  const target = schema.$ref;
  if (typeof target !== "string") return schema;
  const name = target.split("/").pop() ?? "";
  return components[name] ?? {};
}

const ID_PATTERN = /^\^([a-z_]+)_\[0-9a-f\]\{8\}-/;

function stringOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
  const id = pattern ? ID_PATTERN.exec(pattern) : null;
  if (id) return fc.uuid().map((u) => `${id[1]}_${u}`);
  if (schema.format === "uuid") return fc.uuid();
  if (schema.format === "date-time")
    return fc
      .date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) })
      .map((d) => d.toISOString());
  if (pattern) {
    try {
      return fc.stringMatching(new RegExp(pattern), { size: "small" });
    } catch {
      // A pattern fast-check cannot generate from: fall back to plain strings.
    }
  }
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = Math.min(
    typeof schema.maxLength === "number" ? schema.maxLength : 40,
    Math.max(min, 40),
  );
  return fc.string({ minLength: min, maxLength: max, unit: "grapheme" });
}

/** An arbitrary for one schema; `depth` bounds recursion through $refs. */
export function arbitraryFor(
  schema: JsonSchema,
  components: Components,
  depth = 0,
  hostile = true,
): fc.Arbitrary<unknown> {
  const s = ref(schema, components);
  if (depth > 5) return fc.constant(null);
  const shaped = shapedFor(s, components, depth, hostile);
  // One time in ten, a hostile value in place of whatever was expected.
  return hostile
    ? fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: hostileScalar })
    : shaped;
}

function shapedFor(
  s: JsonSchema,
  components: Components,
  depth: number,
  hostile: boolean,
): fc.Arbitrary<unknown> {
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length)
    return fc.oneof(...alternatives.map((a) => arbitraryFor(a, components, depth + 1, hostile)));
  if (Array.isArray(s.allOf) && s.allOf.length)
    return arbitraryFor(s.allOf[0] as JsonSchema, components, depth + 1, hostile);
  const type = Array.isArray(s.type) ? (s.type[0] as string) : (s.type as string | undefined);
  switch (type) {
    case "string":
      return stringOf(s);
    case "integer": {
      const min = typeof s.minimum === "number" ? s.minimum : -1000;
      const max = typeof s.maximum === "number" ? s.maximum : 1_000_000;
      return fc.integer({ min: Math.max(min, -2147483648), max: Math.min(max, 2147483647) });
    }
    case "number":
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: typeof s.minimum === "number" ? s.minimum : -1e6,
        max: typeof s.maximum === "number" ? s.maximum : 1e6,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = (s.items as JsonSchema | undefined) ?? {};
      return fc.array(arbitraryFor(items, components, depth + 1, hostile), {
        maxLength: Math.min(typeof s.maxItems === "number" ? s.maxItems : 4, 4),
      });
    }
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((s.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, prop] of Object.entries(properties))
        record[name] = arbitraryFor(prop, components, depth + 1, hostile);
      const keys = Object.keys(properties);
      if (keys.length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 3,
        });
      return fc.record(record, { requiredKeys: keys.filter((k) => required.has(k)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}
