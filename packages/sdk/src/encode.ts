// Turns a call's single input object into the parts of an HTTP request: path parameters
// into the path, query parameters into the search string, `body` into the payload in the
// content type the operation declares.
import { fillPath, type OperationDef } from "@gauntlet/core";

export interface EncodedRequest {
  /** Path and search string, relative to the base address. */
  target: string;
  body: string | Uint8Array | ArrayBuffer | Blob | URLSearchParams | undefined;
  contentType: string | undefined;
  /** Headers that carry inputs (a lease's secret). */
  headers: Record<string, string>;
}

function namesOf(schema: OperationDef["params"]): readonly string[] {
  return schema ? Object.keys(schema.shape) : [];
}

function queryValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

function encodeBody(op: OperationDef, body: unknown): Pick<EncodedRequest, "body" | "contentType"> {
  if (body === undefined) return { body: undefined, contentType: undefined };
  switch (op.bodyContentType) {
    case "application/x-www-form-urlencoded": {
      const form = new URLSearchParams();
      if (typeof body !== "object" || body === null)
        throw new TypeError(`${op.id}: body must be an object of form fields`);
      for (const [k, v] of Object.entries(body))
        if (v !== undefined && v !== null) form.append(k, queryValue(v));
      return { body: form, contentType: op.bodyContentType };
    }
    case "application/octet-stream":
      if (
        typeof body === "string" ||
        body instanceof Uint8Array ||
        body instanceof ArrayBuffer ||
        body instanceof Blob
      ) {
        return { body, contentType: op.bodyContentType };
      }
      throw new TypeError(
        `${op.id}: body must be bytes (Uint8Array, ArrayBuffer, Blob) or a string`,
      );
    default:
      return { body: JSON.stringify(body), contentType: "application/json" };
  }
}

export function encodeRequest(
  op: OperationDef,
  input: Readonly<Record<string, unknown>> | undefined,
): EncodedRequest {
  const paramNames = namesOf(op.params);
  const queryNames = namesOf(op.query);
  const params: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input ?? {})) {
    if (key === "body" && op.body) continue;
    if (key === "lease_token" && op.leaseTokenHeader) {
      if (typeof value !== "string") throw new TypeError(`${op.id}: lease_token must be a string`);
      headers[op.leaseTokenHeader] = value;
    } else if (paramNames.includes(key)) params[key] = value;
    else if (queryNames.includes(key)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) search.append(key, queryValue(v));
      else search.append(key, queryValue(value));
    } else {
      const expected = [
        ...paramNames,
        ...queryNames,
        ...(op.body ? ["body"] : []),
        ...(op.leaseTokenHeader ? ["lease_token"] : []),
      ];
      throw new TypeError(
        `${op.id}: unknown input field "${key}" (expected ${expected.length ? expected.join(", ") : "none"})`,
      );
    }
  }
  let path: string;
  try {
    path = fillPath(op.path, params);
  } catch (error) {
    throw new TypeError(`${op.id}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const query = search.toString();
  return { target: query ? `${path}?${query}` : path, ...encodeBody(op, input?.body), headers };
}
