// "Yours" lists come back empty for a caller the server does not know; an empty list then
// means "sign in", not "you have none".
import type { Gauntlet } from "@gauntlet/sdk";

import { CliError, EXIT } from "../../exit-codes.ts";

/** Throws the not-signed-in error (exit 4, how to sign in) unless the caller is known. */
export async function requireSignIn(client: Gauntlet, all: string): Promise<void> {
  const me = await client.whoami();
  if (me.subject_type === "anonymous")
    throw new CliError(
      `not signed in to ${client.baseUrl ?? "the server"}: run \`gauntlet auth login\` to see yours (${all} lists everyone's)`,
      EXIT.auth,
    );
}
