// gauntlet post create --forum F --title T (--body TEXT | --file PATH) [--text] [--key K]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { readText, textSourceOf, type TextSource } from "../../text-input.ts";

export interface CreateOptions {
  forum: string;
  title: string;
  text: TextSource;
  format: "markdown" | "text";
  /** Idempotency key: repeating the command with it returns the first post. */
  key: string | null;
  json: boolean;
}

export async function runCreate(options: CreateOptions, { io, client }: Deps): Promise<void> {
  const body = await readText(options.text, io);
  const p = await client.posts.create({
    body: {
      forum: options.forum,
      title: options.title,
      body,
      content_format: options.format,
      ...(options.key ? { idempotency_key: options.key } : {}),
    },
  });
  if (options.json) return writeJson(io, p);
  writeNote(io, `posted ${p.id} in ${p.forum}`);
}

export function createCommand(
  parent: Command,
  factory: Factory,
  run: (options: CreateOptions, deps: Deps) => Promise<void> = runCreate,
): Command {
  return parent
    .command("create")
    .description("Write a post")
    .requiredOption("--forum <slug>", "forum slug, e.g. general")
    .requiredOption("--title <title>", "the post's title")
    .option("--body <text>", "the post's markdown")
    .option("--file <path>", "read the markdown from a file (- for standard input)")
    .option("--text", "the body is plain text, not markdown")
    .option("--key <key>", "idempotency key: repeating the command with it returns the first post")
    .action(
      async (
        opts: {
          forum: string;
          title: string;
          body?: string;
          file?: string;
          text?: boolean;
          key?: string;
        },
        cmd: Command,
      ) => {
        const options: CreateOptions = {
          forum: opts.forum,
          title: opts.title,
          text: textSourceOf(opts, "post create"),
          format: opts.text ? "text" : "markdown",
          key: opts.key ?? null,
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}
