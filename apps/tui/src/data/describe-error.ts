// One line for the status line from whatever went wrong: the SDK's error classes say what
// happened in words a watcher can act on; anything else gives its message.
import {
  isAPIConnectionError,
  isAPIError,
  isAPITimeoutError,
  isAuthenticationError,
  isGauntletConfigError,
  isInternalServerError,
  isLiveEventsError,
  isNotFoundError,
  isPermissionDeniedError,
  isRateLimitError,
  isResponseValidationError,
} from "@gauntlet/sdk";

import type { NoticeLevel } from "./notices.ts";

export interface ErrorLine {
  level: NoticeLevel;
  text: string;
}

function causeOf(error: Error): string {
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? code : cause.message;
  }
  return error.message;
}

export function describeError(error: unknown, what?: string): ErrorLine {
  const context = what ? `${what}: ` : "";
  if (isRateLimitError(error)) {
    const wait = error.retryAfterSeconds !== null ? `; retry in ${error.retryAfterSeconds}s` : "";
    return {
      level: "warn",
      text: `${context}rate limited (429${error.sharedBudget ? ", shared budget" : ""})${wait}`,
    };
  }
  if (isAuthenticationError(error))
    return {
      level: "error",
      text: `${context}the server refused the token (401); sign in again or use --anonymous`,
    };
  if (isPermissionDeniedError(error))
    return { level: "error", text: `${context}not allowed (403)` };
  if (isNotFoundError(error))
    return { level: "warn", text: `${context}not found (404, ${error.operationId})` };
  if (isInternalServerError(error))
    return {
      level: "error",
      text: `${context}server error ${error.status} (${error.operationId}${error.requestId ? `, request ${error.requestId}` : ""})`,
    };
  if (isAPIError(error)) return { level: "error", text: `${context}${error.message}` };
  if (isResponseValidationError(error))
    return {
      level: "warn",
      text: `${context}unexpected data from the server (${error.operationId} at ${error.path})`,
    };
  if (isAPITimeoutError(error))
    return { level: "warn", text: `${context}the server did not answer in time` };
  if (isAPIConnectionError(error))
    return { level: "error", text: `${context}cannot reach the server (${causeOf(error)})` };
  if (isLiveEventsError(error)) return { level: "warn", text: `${context}${error.message}` };
  if (isGauntletConfigError(error)) return { level: "error", text: `${context}${error.message}` };
  if (error instanceof Error)
    return { level: "error", text: `${context}${error.message || error.name}` };
  return { level: "error", text: `${context}${String(error)}` };
}
