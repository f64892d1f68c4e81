// Generates the OpenAPI 3.1.0 document from the contract: named
// component schemas, bearer security, the tags that have operations (with their
// descriptions), the error responses each operation can give (derived from its auth,
// parameters and body), and each operation's complexity in its `x-rate-limit` entry.
import { z } from "zod";

import { ErrorBody, RateLimitErrorBody, ValidationErrorBody } from "../models/errors.ts";
import { extraTags, tags, type OperationDef } from "./operation.ts";
import { tagDescriptions } from "./tag-descriptions.ts";

type JsonObject = Record<string, unknown>;

export interface OpenApiOptions {
  servers?: { url: string; description?: string }[];
  title?: string;
  description?: string;
}

const DEFS = "#/$defs/";
const COMPONENTS = "#/components/schemas/";

class SchemaCollector {
  readonly components: Record<string, JsonObject> = {};
  private readonly io = new Map<string, "input" | "output">();

  /** Converts a schema, moving its named parts into components. */
  convert(schema: z.ZodType, io: "input" | "output"): JsonObject {
    const json = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      reused: "inline",
    }) as JsonObject;
    const defs = (json.$defs ?? {}) as Record<string, JsonObject>;
    delete json.$defs;
    delete json.$schema;
    const renames = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) {
      const name = this.place(id, def, io);
      renames.set(id, name);
    }
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== "object") return node;
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string" && v.startsWith(DEFS)) {
          const id = v.slice(DEFS.length);
          out[k] = COMPONENTS + (renames.get(id) ?? id);
        } else out[k] = rewrite(v);
      }
      return out;
    };
    for (const name of new Set(renames.values())) {
      const def = this.components[name];
      if (def) this.components[name] = rewrite(def) as JsonObject;
    }
    return rewrite(json) as JsonObject;
  }

  private place(id: string, def: JsonObject, io: "input" | "output"): string {
    const existing = this.components[id];
    if (!existing) {
      this.components[id] = def;
      this.io.set(id, io);
      return id;
    }
    if (this.io.get(id) === io || JSON.stringify(existing) === JSON.stringify(def)) return id;
    // The same model read as input differs where defaults make fields optional.
    const inputName = `${id}Input`;
    this.components[inputName] ??= def;
    return inputName;
  }
}

function parametersOf(op: OperationDef, collector: SchemaCollector): JsonObject[] {
  const params: JsonObject[] = [];
  const add = (where: "path" | "query", schema: z.ZodObject | undefined) => {
    if (!schema) return;
    const json = collector.convert(schema, "input");
    const props = (json.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, s] of Object.entries(props)) {
      const { description, ...rest } = s;
      params.push({
        name,
        in: where,
        required: where === "path" || required.has(name),
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  };
  add("path", op.params);
  add("query", op.query);
  return params;
}

const UNREADABLE_REQUEST =
  "The request could not be read: a malformed address (400) or headers that are too large (431).";

/** OpenAPI summaries are plain text (only descriptions are Markdown): inline code loses its backticks. */
function plainSummary(summary: string): string {
  return summary.replace(/`([^`]*)`/g, "$1");
}

function contentFor(kind: OperationDef["responseKind"], schema: JsonObject): JsonObject {
  switch (kind) {
    case "html":
      return { "text/html": { schema: { type: "string" } } };
    case "text":
      return { "text/plain": { schema: { type: "string" } } };
    case "javascript":
      return { "text/javascript": { schema: { type: "string" } } };
    case "bytes":
      return {
        "application/octet-stream": {
          schema: { type: "string", contentMediaType: "application/octet-stream" },
        },
      };
    default:
      return { "application/json": { schema } };
  }
}

export function buildOpenApi(
  operations: readonly OperationDef[],
  options: OpenApiOptions = {},
): JsonObject {
  const collector = new SchemaCollector();
  const errorRef = (schema: z.ZodType) => collector.convert(schema, "output");
  const validation = errorRef(ValidationErrorBody);
  const rateLimited = errorRef(RateLimitErrorBody);
  const error = errorRef(ErrorBody);
  const json = (schema: JsonObject, description: string) => ({
    description,
    content: { "application/json": { schema } },
  });

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const op of operations) {
    const responses: Record<string, JsonObject> = {};
    const success = collector.convert(op.response, "output");
    responses[String(op.status)] =
      op.status === 302
        ? {
            // Each redirecting operation says in its own description where it sends the caller.
            description: `Redirect: ${op.summary}`,
            headers: {
              Location: {
                description: "Where the answer is (the operation's description says what)",
                schema: { type: "string", format: "uri" },
              },
            },
          }
        : { description: "Success", content: contentFor(op.responseKind, success) };
    for (const status of op.pageStatuses ?? [])
      responses[String(status)] = {
        description: status < 400 ? "The page, with its result" : "The page again, with the error",
        content: contentFor("html", success),
      };
    if (op.params || op.query || op.body) responses["422"] = json(validation, "Validation error");
    if (op.auth !== "none") {
      if (!op.invalidTokenIsAnonymous) responses["401"] = json(error, "Missing or invalid token");
      if (!op.budgetExempt) responses["429"] = json(rateLimited, "Shared budget exceeded");
    }
    if (op.auth === "required" && op.method !== "GET")
      responses["403"] = json(error, "Not allowed");
    // An operation whose page answers its 404 (pageStatuses) keeps the page.
    if (op.params && !responses["404"])
      responses["404"] = json(error, "Not found, or not visible to the caller");
    if (op.maxBodyBytes !== undefined)
      responses["413"] = json(
        error,
        `The body is larger than ${op.maxBodyBytes} bytes (\`payload_too_large\`)`,
      );
    if (op.idempotent)
      responses["409"] = json(
        error,
        "Conflict (an Idempotency-Key reused with another body, or a state conflict)",
      );
    // An operation that reads no token and no input still refuses a request it cannot read.
    if (!Object.keys(responses).some((status) => status.startsWith("4")))
      responses["4XX"] = { description: UNREADABLE_REQUEST };

    const operation: JsonObject = {
      operationId: op.id,
      summary: plainSummary(op.summary),
      tags: [op.tag],
      parameters: parametersOf(op, collector),
      responses,
      "x-rate-limit": {
        complexity: op.complexity,
        budgeted: op.auth !== "none" && !op.budgetExempt,
      },
    };
    if (op.description) operation.description = op.description;
    if (op.auth === "required") operation.security = [{ bearerAuth: [] }];
    if (op.auth === "optional") operation.security = [{ bearerAuth: [] }, {}];
    if (op.auth === "none") operation.security = [];
    if (op.credentialHeader) operation.security = [{ reporterKey: [] }];
    if (op.leaseTokenHeader) {
      (operation.parameters as JsonObject[]).push({
        name: op.leaseTokenHeader,
        in: "header",
        required: true,
        description:
          "The `lease_token` the job's lease answered with. A missing one or another machine's lease is 403; a stale one (the lease expired or the job was leased again) is 409; neither changes anything.",
        schema: { type: "string", maxLength: 200 },
      });
    }
    if (op.idempotent) {
      (operation.parameters as JsonObject[]).push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "The same key and body within 24 h return the first response and create nothing new.",
        schema: { type: "string", maxLength: 200 },
      });
    }
    if (op.body) {
      const type = op.bodyContentType ?? "application/json";
      const schema =
        type === "application/octet-stream"
          ? { type: "string", contentMediaType: type }
          : collector.convert(op.body, "input");
      operation.requestBody = { required: !op.bodyOptional, content: { [type]: { schema } } };
    }
    const byMethod = (paths[op.path] ??= {});
    byMethod[op.method.toLowerCase()] = operation;
  }

  // Groups with no operation yet would be empty entries in the reference's sidebar.
  const used = new Set(operations.map((op) => op.tag));
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Gauntlet tournament service",
      version: "1.0.0",
      description:
        options.description ??
        "Leagues, divisions, episodes and games for AI policy tournaments. Every authenticated request draws on shared budgets; see `x-rate-limit` on each operation.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: options.servers ?? [],
    tags: [...tags, ...extraTags]
      .filter((name) => used.has(name))
      .map((name) => ({ name, description: tagDescriptions[name] })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "A token issued by the service.",
        },
        reporterKey: {
          type: "apiKey",
          in: "header",
          name: "X-Reporter-Key",
          description:
            "A reporter's key, shown once when it is registered or rotated; it acts under the reporter's owner for the budgets.",
        },
      },
      schemas: collector.components,
    },
  };
}
