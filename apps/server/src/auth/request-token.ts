// The caller's token as a request carries it — one reading for the request gate and for the
// live-events socket, so a socket opened with either header is looked up again the same way.
import type { IncomingHttpHeaders } from "node:http";

/**
 * `Authorization: Bearer <token>`, or the same token in `X-Auth-Token` (the header the hosted
 * service's cogames client sends). Undefined when neither is sent, null when the one sent is
 * malformed. Authorization wins when both are sent, so a second header can never swap the
 * identity a request runs as.
 */
export function requestToken(headers: IncomingHttpHeaders): string | null | undefined {
  const header = headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] ?? null;
  }
  const alt = headers["x-auth-token"];
  if (alt === undefined) return undefined;
  const value = typeof alt === "string" ? alt.trim() : "";
  return /^\S+$/.test(value) ? value : null;
}
