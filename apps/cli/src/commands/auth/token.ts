// gauntlet auth token: print the token for the server
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import type { Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { authDepsOf, notSignedIn, type AuthDeps } from "./shared.ts";

export interface TokenOptions {
  json: boolean;
}

export async function runToken(options: TokenOptions, { io, server }: AuthDeps): Promise<void> {
  const { resolveToken } = await import("@gauntlet/core");
  const resolved = resolveToken({ server });
  if (!resolved) throw notSignedIn(server);
  if (options.json) return writeJson(io, { server, token: resolved.token });
  io.out.write(`${resolved.token}\n`);
}

export function tokenCommand(
  parent: Command,
  factory: Factory,
  run: (options: TokenOptions, deps: AuthDeps) => Promise<void> = runToken,
): Command {
  return parent
    .command("token")
    .description(
      'Print the token for the server (for curl: -H "Authorization: Bearer $(gauntlet auth token)")',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      await run({ json: wantsJson(cmd) }, await authDepsOf(factory, cmd));
    });
}
