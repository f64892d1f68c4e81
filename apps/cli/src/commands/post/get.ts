// gauntlet post get POST [--markdown]
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, visible, writeFields, writeJson } from "../../output.ts";

export interface GetOptions {
  postId: string;
  /** The markdown source only. */
  markdown: boolean;
  json: boolean;
}

export async function runGet(options: GetOptions, { io, client }: Deps): Promise<void> {
  const post_id = options.postId;
  if (options.markdown) return io.out.write(await client.posts.markdown({ post_id }));
  const p = await client.posts.get({ post_id });
  if (options.json) return writeJson(io, p);
  writeFields(io, [
    ["id", p.id],
    ["forum", p.forum],
    ["title", p.title],
    ["author", p.author.user_id],
    ["score", p.score],
    ["created", shortTime(p.created_at)],
  ]);
  io.out.write(`\n${visible(p.body)}\n`);
  for (const c of p.comments)
    io.out.write(
      `\n— ${c.author.user_id} (${c.score}) ${shortTime(c.created_at)} ${c.id}\n${c.body}\n`,
    );
}

export function getCommand(
  parent: Command,
  factory: Factory,
  run: (options: GetOptions, deps: Deps) => Promise<void> = runGet,
): Command {
  return parent
    .command("get")
    .description("Show a post with its comments")
    .argument("<post>", "post id (post_…)")
    .option("--markdown", "print the markdown source only")
    .action(async (id: string, opts: { markdown?: boolean }, cmd: Command) => {
      const options = {
        postId: await checkId("post", id, "POST"),
        markdown: opts.markdown === true,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
