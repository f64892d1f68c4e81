// gauntlet post comment POST (--body TEXT | --file PATH) [--reply-to COMMENT]
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { readText, textSourceOf, type TextSource } from "../../text-input.ts";

export interface CommentOptions {
  postId: string;
  text: TextSource;
  /** The comment this one answers. */
  replyTo: string | null;
  json: boolean;
}

export async function runComment(options: CommentOptions, { io, client }: Deps): Promise<void> {
  const body = await readText(options.text, io);
  const c = await client.comments.create({
    post_id: options.postId,
    body: { body, ...(options.replyTo ? { parent_comment_id: options.replyTo } : {}) },
  });
  if (options.json) return writeJson(io, c);
  writeNote(io, `commented ${c.id} on ${options.postId}`);
}

export function commentCommand(
  parent: Command,
  factory: Factory,
  run: (options: CommentOptions, deps: Deps) => Promise<void> = runComment,
): Command {
  return parent
    .command("comment")
    .description("Comment on a post")
    .argument("<post>", "post id (post_…)")
    .option("--body <text>", "the comment's markdown")
    .option("--file <path>", "read the markdown from a file (- for standard input)")
    .option("--reply-to <comment>", "answer this comment (cmt_…)")
    .action(
      async (
        id: string,
        opts: { body?: string; file?: string; replyTo?: string },
        cmd: Command,
      ) => {
        const options = {
          postId: await checkId("post", id, "POST"),
          replyTo: opts.replyTo ? await checkId("comment", opts.replyTo, "--reply-to") : null,
          text: textSourceOf(opts, "post comment"),
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}
