// What every answer to a fuzzed or unauthorised request must look like: never a 5xx, every
// 4xx in the documented shape, no stack trace, no internal path, no SQL.
import { z } from "zod";

import { RateLimitErrorBody, ValidationErrorBody } from "@gauntlet/core";

const ErrorBody = z.object({
  detail: z.object({ type: z.string().min(1), message: z.string().min(1) }),
});

const LEAKS: readonly [string, RegExp][] = [
  ["stack frame", /\bat [\w.<>$]+ \([^)]*:\d+:\d+\)|\n\s+at \S+:\d+:\d+/],
  ["source path", /\/(?:src|node_modules|work)\/[\w./-]+\.(?:ts|js)\b/],
  [
    "SQL error",
    /SQLITE_[A-Z]+|syntax error at or near|relation "[^"]+" does not exist|violates (?:unique|foreign key|check|not-null) constraint|UNIQUE constraint failed/,
  ],
];

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Problems of one answer (empty when it is fine); `privatePaths` are directories that must never appear. */
export function problemsOf(
  answer: Answer,
  privatePaths: readonly string[] = [],
  pageStatuses: readonly number[] = [],
): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  // A successful non-JSON answer is a page or a script (the docs bundle names its own sources).
  const checked = answer.status >= 300 || answer.contentType.includes("json");
  if (checked)
    for (const [name, pattern] of LEAKS)
      if (pattern.test(answer.text)) problems.push(`${name} in body`);
  for (const path of privatePaths)
    if (answer.text.includes(path)) problems.push(`internal path ${path} in body`);
  if (answer.status >= 400 && answer.status < 500) {
    // Node's own HTTP parser answers an oversized header block (431) before any route, without a body.
    if (answer.status === 431 && answer.text === "") return problems;
    // A form's page answers a refused form (a wrong password) as the page again, as documented.
    if (pageStatuses.includes(answer.status) && answer.contentType.startsWith("text/html"))
      return problems;
    if (!answer.contentType.includes("json")) {
      problems.push(`a ${answer.status} answered as ${answer.contentType || "no content type"}`);
      return problems;
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      problems.push(`a ${answer.status} whose body is not JSON`);
      return problems;
    }
    const shape =
      answer.status === 422
        ? ValidationErrorBody
        : answer.status === 429
          ? RateLimitErrorBody
          : ErrorBody;
    const parsed = shape.safeParse(body);
    if (!parsed.success)
      problems.push(`a ${answer.status} off its documented shape: ${answer.text.slice(0, 200)}`);
  }
  return problems;
}
