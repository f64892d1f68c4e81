// gauntlet auth status: who you are, on which server, and your rate budget
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import type { Factory } from "../../factory.ts";
import { writeFields, writeJson } from "../../output.ts";
import { authDepsOf, notSignedIn, type AuthDeps } from "./shared.ts";

export interface StatusOptions {
  json: boolean;
}

const TOKEN_SOURCES = {
  env: "GAUNTLET_TOKEN",
  credentials: "saved sign-in",
  explicit: "option",
} as const;

export async function runStatus(options: StatusOptions, deps: AuthDeps): Promise<void> {
  const { io, server } = deps;
  const { resolveToken } = await import("@gauntlet/core");
  const resolved = resolveToken({ server });
  if (!resolved) throw notSignedIn(server);
  const client = await deps.client();
  const me = await client.whoami();
  if (me.subject_type === "anonymous")
    throw new CliError(
      `the token for ${server} was refused: run \`gauntlet auth login\` to sign in again`,
      EXIT.auth,
    );
  if (options.json) return writeJson(io, me);
  const budget = client.lastBudget;
  writeFields(io, [
    ["server", server],
    ["signed in as", me.user_email],
    ["subject", `${me.subject_type} ${me.subject_id ?? ""}`.trim()],
    ["admin", me.is_admin ? (me.elevated ? "yes (elevated)" : "yes (use --elevated)") : "no"],
    ["token from", TOKEN_SOURCES[resolved.source]],
    ...(budget
      ? Object.entries(budget.buckets).map(
          ([name, b]) => [`budget ${name}`, b ? `${b.remaining}/${b.limit}` : "-"] as const,
        )
      : [["budget", "not reported"] as const]),
  ]);
}

export function statusCommand(
  parent: Command,
  factory: Factory,
  run: (options: StatusOptions, deps: AuthDeps) => Promise<void> = runStatus,
): Command {
  return parent
    .command("status")
    .description("Who you are, on which server, and your rate budget (exit 4 when not signed in)")
    .action(async (_opts: unknown, cmd: Command) => {
      await run({ json: wantsJson(cmd) }, await authDepsOf(factory, cmd));
    });
}
