// The server's HTTP response: node's ServerResponse that can also write header lines prepared
// in their final form (the request id and Vary of every answer, http/answer-headers.ts; the
// budget headers of docs/api.md, http/authenticate-request.ts) in one piece, right after the
// status line. Set one by one through fastify, those sixteen headers cost a
// budgeted read more than the rest of the request (bench/hot-path): a lower-cased copy and a
// keyed store per header in fastify, then in node a name and a value check, a string join and
// a special-header match per header. The prepared lines skip all of it; their names are ours and
// their values digits and enum words, so node's checks have nothing to find in them.
import { ServerResponse, type IncomingMessage } from "node:http";

type StoreHeader = (this: ServerResponse, firstLine: string, headers: unknown) => void;

// Node's (long-standing, undocumented) step that turns the status line and the headers into the
// header block; absent, the prepared path is off and the headers go through fastify.
const storeHeader = (ServerResponse.prototype as unknown as { _storeHeader?: StoreHeader })
  ._storeHeader;

export class PreparedHeadersResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  /** Header lines ("name: value\r\n" each, already valid) to write after the status line. */
  preparedLines = "";

  _storeHeader(firstLine: string, headers: unknown): void {
    (storeHeader as StoreHeader).call(this, firstLine + this.preparedLines, headers);
  }
}

/** The response class for the server's `http.createServer` options, when node has the step it builds on. */
export const preparedHeadersResponse: typeof ServerResponse | undefined = storeHeader
  ? PreparedHeadersResponse
  : undefined;
