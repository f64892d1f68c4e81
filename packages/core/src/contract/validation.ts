// Maps zod issues to the 422 items of docs/api.md: `loc` starts with where the input was
// (path, query or body), `type` is a stable machine-readable kind.
import type { z } from "zod";

import type { ValidationErrorItem } from "../models/errors.ts";

export type InputSource = "path" | "query" | "body" | "header";

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function locPart(key: PropertyKey): string | number {
  return typeof key === "number" ? key : String(key);
}

function issueType(
  issue: z.core.$ZodIssue,
  input: unknown,
): { type: string; ctx?: Record<string, unknown> } {
  switch (issue.code) {
    case "invalid_type":
      return input === undefined
        ? { type: "missing" }
        : { type: `${issue.expected}_type`, ctx: { expected: issue.expected } };
    case "invalid_format":
      if (issue.format === "regex" && "pattern" in issue)
        return { type: "string_pattern_mismatch", ctx: { pattern: String(issue.pattern) } };
      return { type: `${issue.format}_format`, ctx: { format: issue.format } };
    case "too_small":
      return {
        type:
          issue.origin === "string" || issue.origin === "array"
            ? "too_short"
            : "greater_than_equal",
        ctx: { min: Number(issue.minimum) },
      };
    case "too_big":
      return {
        type:
          issue.origin === "string" || issue.origin === "array" ? "too_long" : "less_than_equal",
        ctx: { max: Number(issue.maximum) },
      };
    case "invalid_value":
      return { type: "enum", ctx: { expected: issue.values.map(String) } };
    case "not_multiple_of":
      return { type: "multiple_of", ctx: { multiple_of: Number(issue.divisor) } };
    case "invalid_union":
      return { type: "union" };
    case "invalid_key":
    case "invalid_element":
      return { type: "value_error" };
    default:
      return { type: "value_error" };
  }
}

/** Turns the issues of one parse into docs/api.md items located under `source`. */
export function toValidationItems(
  source: InputSource,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      // One item per extra property, located at the property itself.
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        items.push({
          loc: [source, ...path.map(locPart)],
          msg: `Extra inputs are not permitted: ${key}`,
          type: "extra_forbidden",
          input: valueAt(input, path),
        });
      }
      continue;
    }
    const at = valueAt(input, issue.path);
    const { type, ctx } = issueType(issue, at);
    const item: ValidationErrorItem = {
      loc: [source, ...issue.path.map(locPart)],
      msg: type === "missing" ? "Field required" : issue.message,
      type,
    };
    if (at !== undefined) item.input = at;
    if (ctx) item.ctx = ctx;
    items.push(item);
  }
  return items;
}
