// gauntlet post vote POST up|down|none [--comment COMMENT]
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";

const VOTES = { up: 1, down: -1, none: 0 } as const;

export interface VoteOptions {
  postId: string;
  /** Vote on this comment of the post instead of the post. */
  commentId: string | null;
  value: -1 | 0 | 1;
  json: boolean;
}

export async function runVote(options: VoteOptions, { io, client }: Deps): Promise<void> {
  const { postId: post_id, value } = options;
  if (options.commentId) {
    const c = await client.comments.vote({
      post_id,
      comment_id: options.commentId,
      body: { value },
    });
    if (options.json) return writeJson(io, c);
    return writeNote(io, `comment ${c.id}: score ${c.score}, your vote ${c.my_vote}`);
  }
  const p = await client.posts.vote({ post_id, body: { value } });
  if (options.json) return writeJson(io, p);
  writeNote(io, `post ${p.id}: score ${p.score}, your vote ${p.my_vote}`);
}

export function voteCommand(
  parent: Command,
  factory: Factory,
  run: (options: VoteOptions, deps: Deps) => Promise<void> = runVote,
): Command {
  return parent
    .command("vote")
    .description("Vote on a post (or on one of its comments with --comment)")
    .argument("<post>", "post id (post_…)")
    .argument("<vote>", "up, down or none")
    .option("--comment <comment>", "vote on this comment of the post (cmt_…)")
    .action(async (id: string, vote: string, opts: { comment?: string }, cmd: Command) => {
      const postId = await checkId("post", id, "POST");
      const value = Object.entries(VOTES).find(([name]) => name === vote)?.[1];
      if (value === undefined)
        throw new CliError(`VOTE: '${vote}' is not one of up, down, none`, EXIT.usage);
      const options = {
        postId,
        commentId: opts.comment ? await checkId("comment", opts.comment, "--comment") : null,
        value,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
