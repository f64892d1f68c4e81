// gauntlet admin audit: the audit trail of elevated admin actions (newest first). Reading it is
// itself an admin power, so it needs --elevated like every other one.
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { parsePositiveInt, wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { shortTime, writeJson, writeTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export interface AuditOptions {
  query: NonNullable<InputOf<"listAdminAudit">>;
  json: boolean;
}

export async function runAudit(options: AuditOptions, { io, client }: Deps): Promise<void> {
  const entries = await client.admin.audit(options.query);
  if (options.json) return writeJson(io, entries);
  writeTable(
    io,
    ["when", "admin", "operation", "method", "path", "status"],
    entries.map((e) => [shortTime(e.at), e.user_email, e.operation_id, e.method, e.path, e.status]),
    "no elevated actions recorded",
  );
}

interface AuditFlags {
  user?: string;
  limit: string;
}

export function auditCommand(
  parent: Command,
  factory: Factory,
  run: (options: AuditOptions, deps: Deps) => Promise<void> = runAudit,
): Command {
  return parent
    .command("audit")
    .description("The audit trail of elevated admin actions, newest first (needs --elevated)")
    .option("--user <user-id>", "only this admin's actions")
    .option("--limit <n>", "at most this many (up to 500)", "100")
    .addHelpText("after", "\nExample:\n  $ gauntlet --elevated admin audit --limit 20")
    .action(async (opts: AuditFlags, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const query = {
        limit: parsePositiveInt(opts.limit, "--limit"),
        ...(opts.user ? { user_id: opts.user } : {}),
      };
      await run({ query, json: wantsJson(cmd) }, deps);
    });
}

export const admin: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("admin")
      .description("Admin tools: the audit trail (an admin's powers need --elevated)");
    auditCommand(group, factory);
  },
};
