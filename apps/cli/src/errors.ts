// Every failure becomes one plain line on standard error and an exit code (never a stack
// trace). SDK errors are recognised by their guards, loaded only when something failed.
import { CliError, EXIT, HOW_TO_CONFIGURE } from "./exit-codes.ts";

export interface Explained {
  message: string;
  exitCode: number;
}

function detailMessage(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("detail" in body)) return null;
  const detail = body.detail;
  if (
    typeof detail === "object" &&
    detail !== null &&
    "message" in detail &&
    typeof detail.message === "string"
  )
    return detail.message;
  return null;
}

export async function explain(error: unknown, server: string | null): Promise<Explained> {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  const sdk = await import("@gauntlet/sdk");
  const where = server ? ` (${server})` : "";
  if (sdk.isUnprocessableEntityError(error)) {
    const first = error.errors[0];
    if (first) {
      const field = first.loc
        .filter((p) => p !== "body" && p !== "path" && p !== "query")
        .join(".");
      const input =
        first.input === undefined
          ? ""
          : ` '${typeof first.input === "string" ? first.input : JSON.stringify(first.input)}'`;
      return { message: `invalid ${field || "input"}${input}: ${first.msg}`, exitCode: EXIT.usage };
    }
    return { message: `invalid input: ${error.message}`, exitCode: EXIT.usage };
  }
  if (sdk.isNotFoundError(error))
    return {
      message: `not found: ${detailMessage(error.body) ?? error.message}`,
      exitCode: EXIT.notFound,
    };
  if (sdk.isAuthenticationError(error)) {
    return {
      message: `not signed in${where}, or the token was refused: run \`gauntlet auth login\` to sign in again`,
      exitCode: EXIT.auth,
    };
  }
  if (sdk.isPermissionDeniedError(error))
    return {
      message: `not allowed: ${detailMessage(error.body) ?? error.message}`,
      exitCode: EXIT.failure,
    };
  if (sdk.isRateLimitError(error)) {
    const after =
      error.retryAfterSeconds === null ? "" : `; try again in ${error.retryAfterSeconds}s`;
    return { message: `rate limited by the server${after}`, exitCode: EXIT.failure };
  }
  if (sdk.isAPIError(error))
    return {
      message: `${detailMessage(error.body) ?? error.message} (HTTP ${error.status})`,
      exitCode: EXIT.failure,
    };
  if (sdk.isAPIConnectionError(error))
    return {
      message: `cannot reach the Gauntlet server${where}: ${error.message}`,
      exitCode: EXIT.failure,
    };
  if (sdk.isGauntletConfigError(error))
    return {
      message: `${error.message.startsWith("no Gauntlet server") ? `no Gauntlet server configured: ${HOW_TO_CONFIGURE}` : error.message}`,
      exitCode: EXIT.auth,
    };
  if (error instanceof Error && error.name === "CredentialsFileError")
    return { message: error.message, exitCode: EXIT.failure };
  if (error instanceof Error && error.name === "InvalidServerUrlError")
    return { message: error.message, exitCode: EXIT.usage };
  if (
    error instanceof Error &&
    "code" in error &&
    typeof error.code === "string" &&
    error.code.startsWith("E")
  ) {
    return { message: error.message, exitCode: EXIT.failure };
  }
  return {
    message: error instanceof Error ? error.message : String(error),
    exitCode: EXIT.failure,
  };
}
