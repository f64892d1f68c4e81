// gauntlet auth logout: forget the token saved for the server
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import type { Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { authDepsOf, type AuthDeps } from "./shared.ts";

export interface LogoutOptions {
  json: boolean;
}

export async function runLogout(options: LogoutOptions, { io, server }: AuthDeps): Promise<void> {
  const { removeCredential } = await import("@gauntlet/core");
  const removed = removeCredential(server);
  if (options.json) return writeJson(io, { server, removed });
  writeNote(
    io,
    removed ? `Signed out of ${server}.` : `Not signed in to ${server}; nothing to do.`,
  );
}

export function logoutCommand(
  parent: Command,
  factory: Factory,
  run: (options: LogoutOptions, deps: AuthDeps) => Promise<void> = runLogout,
): Command {
  return parent
    .command("logout")
    .description("Forget the token saved for the server")
    .action(async (_opts: unknown, cmd: Command) => {
      await run({ json: wantsJson(cmd) }, await authDepsOf(factory, cmd));
    });
}
