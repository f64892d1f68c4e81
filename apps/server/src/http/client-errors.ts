// Errors Node's HTTP parser raises before any route (a header block over the limit, a
// malformed request line, a client that never finishes its headers) answered in the same
// `{detail: {type, message}}` shape as every other error, instead of fastify's default body.
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

function answerFor(code: string | undefined): { status: number; type: string; message: string } {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return {
      status: 408,
      type: "request_timeout",
      message: "The request was not received in time.",
    };
  if (code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      type: "headers_too_large",
      message: "The request's headers exceed the allowed size (16 KiB).",
    };
  return { status: 400, type: "bad_request", message: "The request is not valid HTTP." };
}

export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, type, message } = answerFor(error.code);
  const body = JSON.stringify({ detail: { type, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
