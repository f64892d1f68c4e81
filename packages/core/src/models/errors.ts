// Error bodies: the 422 of docs/api.md, the 429 of docs/api.md, and the `{detail: {type, message}}`
// shape docs/api.md ("Conventions") gives every other error.
import { z } from "zod";

export const ValidationErrorItem = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "ValidationErrorItem" });

export const ValidationErrorBody = z
  .object({ detail: z.array(ValidationErrorItem) })
  .meta({ id: "HTTPValidationError", description: "The body of every 422." });

export const RATE_LIMIT_ERROR_TYPE = "api_rate_limit_exceeded";

export const RateLimitErrorBody = z
  .object({
    detail: z.object({
      type: z.string(),
      message: z.string(),
      retry_after_seconds: z.number().int(),
      documentation_url: z.string(),
    }),
  })
  .meta({ id: "RateLimitError", description: "The body of a shared-budget 429." });

export const ErrorType = z.enum([
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "bad_request",
  "internal_error",
  "unavailable",
]);

export const ErrorBody = z
  .object({
    detail: z.looseObject({
      type: z.string(),
      message: z.string(),
    }),
  })
  .meta({ id: "Error", description: "Every error other than 422 and a shared-budget 429." });

export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
export type RateLimitErrorBody = z.infer<typeof RateLimitErrorBody>;
export type ErrorBody = z.infer<typeof ErrorBody>;
