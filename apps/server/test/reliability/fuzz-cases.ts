// The requests the fuzzer sends to one operation of /openapi.json: seeded schema-derived cases
// and a fixed list of hostile ones (malformed JSON, wrong content types, bodies over the limit,
// deep nesting, huge and negative numbers, NUL bytes, odd Unicode, path traversal in every path
// parameter, duplicate query parameters, very long headers).
import fc from "fast-check";

import { arbitraryFor, type Components, type JsonSchema } from "./arbitraries.ts";

export interface FuzzRequest {
  label: string;
  method: string;
  /** Path and query, relative to the API's base URL (already encoded). */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
}

export interface OpenApiOperation {
  id: string;
  method: string;
  path: string;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; schema: JsonSchema }[];
  body: { contentType: string; schema: JsonSchema } | undefined;
  /** Statuses the operation documents as an HTML page (a form showing its own error). */
  pageStatuses: number[];
}

interface RawParameter {
  name: string;
  in: string;
  schema?: JsonSchema;
}

/** Every operation of an OpenAPI document, in document order. */
export function operationsOf(doc: Record<string, unknown>): OpenApiOperation[] {
  const out: OpenApiOperation[] = [];
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const params = (op.parameters ?? []) as RawParameter[];
      const content = ((
        op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined
      )?.content ?? {}) as Record<string, { schema?: JsonSchema }>;
      const [contentType, media] = Object.entries(content)[0] ?? [];
      out.push({
        id: String(op.operationId),
        method: method.toUpperCase(),
        path,
        pathParams: params
          .filter((p) => p.in === "path")
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: "string" } })),
        queryParams: params
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: "string" } })),
        body: contentType ? { contentType, schema: media?.schema ?? {} } : undefined,
        pageStatuses: Object.entries((op.responses ?? {}) as Record<string, { content?: object }>)
          .filter(([, answer]) => "text/html" in (answer.content ?? {}))
          .map(([status]) => Number(status)),
      });
    }
  }
  return out;
}

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => values[name] ?? "x");
}

function queryString(entries: [string, string][]): string {
  if (!entries.length) return "";
  return `?${entries.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`).join("&")}`;
}

/** encodeURIComponent that accepts lone surrogates (sent as U+FFFD instead of throwing). */
function enc(value: string): string {
  return encodeURIComponent(
    value.replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      "\uFFFD",
    ),
  );
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

function nested(depth: number, open: string, close: string, inner = "1"): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

export const OVER_LIMIT_BYTES = 10 * 1024 * 1024 + 1;

export interface CaseOptions {
  seed: number;
  /** Schema-derived cases per operation. */
  generated: number;
  /** Send a body over the size limit (10 MiB + 1) to this operation. */
  overLimit: boolean;
}

/** The cases for one operation, the same for the same seed. */
export function casesFor(
  op: OpenApiOperation,
  components: Components,
  options: CaseOptions,
): FuzzRequest[] {
  const cases: FuzzRequest[] = [];
  const pathArb = fc.record(
    Object.fromEntries(
      op.pathParams.map((p) => [p.name, arbitraryFor(p.schema, components).map(asText)]),
    ),
  );
  const queryArb = fc.record(
    Object.fromEntries(op.queryParams.map((p) => [p.name, arbitraryFor(p.schema, components)])),
    { requiredKeys: [] },
  );
  const bodyArb = op.body ? arbitraryFor(op.body.schema, components) : fc.constant(undefined);
  const samples = fc.sample(fc.tuple(pathArb, queryArb, bodyArb), {
    seed: options.seed,
    numRuns: options.generated,
  });
  const validPath: Record<string, string> = {};
  for (const p of op.pathParams)
    validPath[p.name] = asText(
      fc.sample(arbitraryFor({ ...p.schema }, components), { seed: options.seed, numRuns: 1 })[0],
    );
  for (const [i, [params, query, body]] of samples.entries()) {
    const q = Object.entries(query).flatMap(([k, v]): [string, string][] =>
      Array.isArray(v) ? v.map((x) => [k, asText(x)]) : [[k, asText(v)]],
    );
    const request: FuzzRequest = {
      label: `generated #${i}`,
      method: op.method,
      path:
        fill(op.path, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, enc(v)]))) +
        queryString(q),
      headers: {},
    };
    if (op.body && body !== undefined) {
      if (op.body.contentType === "application/json") {
        request.headers["content-type"] = "application/json";
        request.body = JSON.stringify(body);
      } else if (op.body.contentType === "application/x-www-form-urlencoded") {
        request.headers["content-type"] = op.body.contentType;
        request.body = new URLSearchParams(
          Object.entries(typeof body === "object" && body ? body : { value: body }).map(
            ([k, v]): [string, string] => [k, asText(v)],
          ),
        ).toString();
      } else {
        request.headers["content-type"] = op.body.contentType;
        request.body = new TextEncoder().encode(asText(body));
      }
    }
    cases.push(request);
  }

  const base = fill(
    op.path,
    Object.fromEntries(Object.entries(validPath).map(([k, v]) => [k, enc(v)])),
  );
  const withBody = op.method !== "GET" && op.method !== "DELETE";
  const hostile = (label: string, extra: Partial<FuzzRequest>): void => {
    cases.push({ label, method: op.method, path: base, headers: {}, ...extra });
  };
  if (withBody) {
    hostile("malformed JSON", {
      headers: { "content-type": "application/json" },
      body: '{"name": "x", ',
    });
    hostile("JSON nested 5,000 levels (arrays)", {
      headers: { "content-type": "application/json" },
      body: nested(5000, "[", "]"),
    });
    hostile("JSON nested 5,000 levels under a field", {
      headers: { "content-type": "application/json" },
      body: `{"name":${nested(5000, '{"a":', "}")}}`,
    });
    hostile("wrong content type", { headers: { "content-type": "text/plain" }, body: "hello" });
    hostile("JSON declared, bytes sent", {
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0xff, 0xfe, 0x00, 0x01]),
    });
    hostile("NUL bytes and odd Unicode in JSON", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "a\u0000b\uD800\u202E", description: "\u0000".repeat(100) }),
    });
    hostile("huge and negative numbers in JSON", {
      headers: { "content-type": "application/json" },
      body: '{"name": 1e400, "count": -99999999999999999999999, "limit": -1}',
    });
    hostile("prototype pollution", {
      headers: { "content-type": "application/json" },
      body: '{"__proto__": {"is_admin": true}, "constructor": {"prototype": {"x": 1}}}',
    });
    if (options.overLimit)
      hostile("body over the limit", {
        headers: { "content-type": op.body?.contentType ?? "application/json" },
        body: new Uint8Array(OVER_LIMIT_BYTES).fill(0x20),
      });
  }
  for (const p of op.pathParams) {
    for (const evil of [
      "..%2F..%2F..%2Fetc%2Fpasswd",
      "%2e%2e",
      "..",
      "%00",
      "a%00b",
      "%E2%80%AE",
      "%F0%9F%92%A9".repeat(30),
      "x".repeat(2000),
      "%25",
      "%ZZ",
    ]) {
      cases.push({
        label: `path traversal/odd value in ${p.name}: ${evil.slice(0, 24)}`,
        method: op.method,
        path: fill(op.path, {
          ...Object.fromEntries(Object.entries(validPath).map(([k, v]) => [k, enc(v)])),
          [p.name]: evil,
        }),
        headers: {},
      });
    }
  }
  for (const p of op.queryParams) {
    cases.push({
      label: `duplicate query ${p.name}`,
      method: op.method,
      path: `${base}?${p.name}=1&${p.name}=2&${p.name}=x`,
      headers: {},
    });
    for (const n of ["-1", "99999999999999999999999", "1e400", "NaN", "-0", "%00"])
      cases.push({
        label: `number ${n} in query ${p.name}`,
        method: op.method,
        path: `${base}?${p.name}=${n}`,
        headers: {},
      });
  }
  hostile("very long header", {
    headers: { "x-request-id": "r".repeat(8000), "x-padding": "p".repeat(8000) },
  });
  hostile("header block over Node's limit", { headers: { "x-padding": "p".repeat(20_000) } });
  hostile("malformed bearer", { headers: { authorization: `Bearer ${"\u00e9".repeat(10)}` } });
  hostile("very long bearer", { headers: { authorization: `Bearer ${"t".repeat(6000)}` } });
  hostile("non-bearer authorization", { headers: { authorization: "Basic YWRtaW46YWRtaW4=" } });
  return cases;
}
