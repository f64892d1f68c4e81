// gauntlet wiki list, wiki get WIKI PAGE, wiki edit WIKI PAGE (--body TEXT | --file PATH)
// [--base REV|none], wiki history WIKI PAGE, wiki search WIKI QUERY
import type { Command } from "commander";

import { clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printJson, printTable, shortTime } from "../output.ts";
import { textOf } from "../text-input.ts";
import type { CommandGroup } from "./group.ts";

/** The page's current revision, or null when it does not exist yet (the edit creates it). */
async function currentRevision(
  client: Awaited<ReturnType<typeof clientOf>>,
  slug: string,
  page: string,
): Promise<string | null> {
  const { isNotFoundError } = await import("@gauntlet/sdk");
  try {
    return (await client.wikis.getPage({ slug, page })).revision_id;
  } catch (error) {
    if (isNotFoundError(error) && (await client.wikis.list()).some((w) => w.slug === slug))
      return null;
    throw error;
  }
}

export const wiki: CommandGroup = {
  register(program) {
    const group = program
      .command("wiki")
      .description("Wikis: one per coworld; read, edit, history, search");
    group
      .command("list")
      .description("List the wikis")
      .action(async (_opts: unknown, cmd: Command) => {
        const wikis = await (await clientOf(cmd)).wikis.list();
        if (wantsJson(cmd)) return printJson(wikis);
        printTable(
          ["slug", "name", "pages"],
          wikis.map((w) => [w.slug, w.name, w.page_count]),
          "no wikis",
        );
      });
    group
      .command("get")
      .description("Print a page's markdown")
      .argument("<wiki>", "wiki slug (a coworld's name)")
      .argument("<page>", "page name")
      .action(async (slug: string, page: string, _opts: unknown, cmd: Command) => {
        const p = await (await clientOf(cmd)).wikis.getPage({ slug, page });
        if (wantsJson(cmd)) return printJson(p);
        process.stdout.write(p.body.endsWith("\n") ? p.body : `${p.body}\n`);
        note(`revision ${p.revision_id} (${p.revision_count} in all), ${shortTime(p.updated_at)}`);
      });
    group
      .command("edit")
      .description("Create or replace a page; refused when someone else saved it since --base")
      .argument("<wiki>", "wiki slug (a coworld's name)")
      .argument("<page>", "page name")
      .option("--body <text>", "the page's markdown")
      .option("--file <path>", "read the markdown from a file (- for standard input)")
      .option(
        "--base <revision>",
        "the revision the edit started from (default: the current one; none creates)",
      )
      .option("--summary <text>", "what changed")
      .action(
        async (
          slug: string,
          page: string,
          opts: { body?: string; file?: string; base?: string; summary?: string },
          cmd: Command,
        ) => {
          const body = await textOf(opts, "wiki edit");
          const client = await clientOf(cmd);
          const base =
            opts.base === undefined
              ? await currentRevision(client, slug, page)
              : opts.base === "none"
                ? null
                : opts.base;
          const { isConflictError } = await import("@gauntlet/sdk");
          try {
            const p = await client.wikis.replacePage({
              slug,
              page,
              body: {
                body,
                base_revision_id: base,
                ...(opts.summary ? { summary: opts.summary } : {}),
              },
            });
            if (wantsJson(cmd)) return printJson(p.page);
            note(`saved ${slug}/${page} as ${p.revision.id}`);
          } catch (error) {
            if (isConflictError(error) && error.errorType === "wiki_edit_conflict") {
              const current =
                (error.body as { detail?: { current_revision_id?: string | null } }).detail
                  ?.current_revision_id ?? "none";
              throw new CliError(
                `edit conflict: ${slug}/${page} is now at revision ${current}; merge with \`gauntlet wiki get ${slug} ${page}\` and run again with --base ${current}`,
              );
            }
            throw error;
          }
        },
      );
    group
      .command("history")
      .description("A page's revisions, newest first")
      .argument("<wiki>", "wiki slug (a coworld's name)")
      .argument("<page>", "page name")
      .option("--limit <n>", "at most this many", "50")
      .action(async (slug: string, page: string, opts: { limit: string }, cmd: Command) => {
        const limit = parsePositiveInt(opts.limit, "--limit");
        const client = await clientOf(cmd);
        const { id } = await client.wikis.getPage({ slug, page });
        const revisions = await client.wikis.revisions({ page_id: id, limit });
        if (wantsJson(cmd)) return printJson(revisions.entries);
        printTable(
          ["revision", "author", "when", "summary"],
          revisions.entries.map((r) => [
            r.id,
            r.author_user_id,
            shortTime(r.created_at),
            r.summary ?? "",
          ]),
          "no revisions",
        );
      });
    group
      .command("search")
      .description("Pages of a wiki whose name or text contains QUERY")
      .argument("<wiki>", "wiki slug (a coworld's name)")
      .argument("<query>", "text to look for (case-insensitive)")
      .action(async (slug: string, q: string, _opts: unknown, cmd: Command) => {
        if (!q.trim()) throw new CliError("QUERY: give some text to look for", EXIT.usage);
        const hits = await (await clientOf(cmd)).wikis.search({ slug, q });
        if (wantsJson(cmd)) return printJson(hits.entries);
        printTable(
          ["page", "updated", "snippet"],
          hits.entries.map((h) => [h.page.page, shortTime(h.page.updated_at), h.snippet]),
          "no pages found",
        );
      });
  },
};
