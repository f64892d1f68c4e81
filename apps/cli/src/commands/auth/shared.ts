// What the auth verbs are given besides their options: the streams, the server they act on, and
// clients for it with the saved token, with none (sign-in), or with a token just obtained.
import type { Command } from "commander";

import type { Gauntlet } from "@gauntlet/sdk";

import { serverOf, type ClientChoice } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import type { Factory } from "../../factory.ts";
import type { IOStreams } from "../../io.ts";

export interface AuthDeps {
  io: IOStreams;
  /** The server's address, the key its token is saved under. */
  server: string;
  client(choice?: ClientChoice): Promise<Gauntlet>;
}

export async function authDepsOf(
  factory: Factory,
  command: Command,
  server?: string,
): Promise<AuthDeps> {
  return {
    io: factory.io,
    server: server ?? (await serverOf(command)),
    client: (choice) => factory.client(command, choice),
  };
}

/** Where login goes: --server, GAUNTLET_SERVER, else the last server signed in to. */
export async function loginServer(command: Command): Promise<string> {
  try {
    return await serverOf(command);
  } catch {
    throw new CliError(
      "which server? pass --server URL (or set GAUNTLET_SERVER): gauntlet auth login --server https://gauntlet.example.com",
      EXIT.usage,
    );
  }
}

export function notSignedIn(server: string): CliError {
  return new CliError(`not signed in to ${server}: run \`gauntlet auth login\``, EXIT.auth);
}
