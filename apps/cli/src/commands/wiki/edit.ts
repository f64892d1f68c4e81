// gauntlet wiki edit WIKI PAGE (--body TEXT | --file PATH) [--base REV|none] [--summary TEXT]
import type { Command } from "commander";

import type { Gauntlet } from "@gauntlet/sdk";

import { wantsJson } from "../../context.ts";
import { CliError } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { readText, textSourceOf, type TextSource } from "../../text-input.ts";

export interface EditOptions {
  slug: string;
  page: string;
  text: TextSource;
  /** The revision the edit started from: the current one (looked up), or one given (null creates). */
  base: "current" | { revision: string | null };
  summary: string | null;
  json: boolean;
}

/** The page's current revision, or null when it does not exist yet (the edit creates it). */
async function currentRevision(
  client: Gauntlet,
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

export async function runEdit(options: EditOptions, { io, client }: Deps): Promise<void> {
  const { slug, page } = options;
  const body = await readText(options.text, io);
  const base =
    options.base === "current" ? await currentRevision(client, slug, page) : options.base.revision;
  const { isConflictError } = await import("@gauntlet/sdk");
  try {
    const p = await client.wikis.replacePage({
      slug,
      page,
      body: {
        body,
        base_revision_id: base,
        ...(options.summary ? { summary: options.summary } : {}),
      },
    });
    if (options.json) return writeJson(io, p.page);
    writeNote(io, `saved ${slug}/${page} as ${p.revision.id}`);
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
}

export function editCommand(
  parent: Command,
  factory: Factory,
  run: (options: EditOptions, deps: Deps) => Promise<void> = runEdit,
): Command {
  return parent
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
        const options: EditOptions = {
          slug,
          page,
          text: textSourceOf(opts, "wiki edit"),
          base:
            opts.base === undefined
              ? "current"
              : { revision: opts.base === "none" ? null : opts.base },
          summary: opts.summary ?? null,
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}
