// Reads a successful response as its operation says: JSON checked against the response
// schema (a mismatch names the field that is wrong), text, bytes, or a redirect's Location.
import type { OperationDef } from "@gauntlet/core";

import { ResponseValidationError, type OffContractIssue } from "./errors.ts";

export interface RawReply {
  status: number;
  headers: Headers;
  /** Text for every kind but bytes. */
  payload: string | Uint8Array;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `["0", "league", "created_at"]` → `[0].league.created_at`. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && IDENTIFIER.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function offContract(
  op: OperationDef,
  reply: RawReply,
  body: unknown,
  issues: OffContractIssue[],
): ResponseValidationError {
  return new ResponseValidationError({
    operationId: op.id,
    status: reply.status,
    headers: reply.headers,
    body,
    issues,
  });
}

function check(op: OperationDef, reply: RawReply, value: unknown): unknown {
  const parsed = op.response.safeParse(value);
  if (parsed.success) return parsed.data;
  throw offContract(
    op,
    reply,
    value,
    parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
  );
}

function asText(payload: string | Uint8Array): string {
  return typeof payload === "string" ? payload : new TextDecoder().decode(payload);
}

/** The value a call resolves to, from a 2xx (or, for a redirecting operation, 3xx) reply. */
export function decodeReply(op: OperationDef, reply: RawReply): unknown {
  if (op.status === 302) {
    if (reply.status >= 300 && reply.status < 400) {
      const location = reply.headers.get("location");
      if (location === null)
        throw offContract(op, reply, undefined, [
          { path: "(header Location)", message: "missing on a redirect" },
        ]);
      return location;
    }
    return asText(reply.payload);
  }
  if (reply.status === 204 || op.status === 204) return undefined;
  const kind = op.responseKind ?? "json";
  if (kind === "bytes")
    return typeof reply.payload === "string"
      ? new TextEncoder().encode(reply.payload)
      : reply.payload;
  const text = asText(reply.payload);
  if (kind !== "json") return check(op, reply, text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const snippet = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw offContract(op, reply, text, [
      { path: "(root)", message: `not JSON: ${JSON.stringify(snippet)}` },
    ]);
  }
  return check(op, reply, json);
}

/** An error response's body: JSON when it parses, else its text, else undefined. */
export function parseErrorBody(payload: string | Uint8Array): unknown {
  const text = asText(payload);
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
