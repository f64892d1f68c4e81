// gauntlet post list [--forum F] [--sort hot|new|top] [--search Q], post get POST [--markdown],
// post create --forum F --title T (--body TEXT | --file PATH) [--key K], post comment POST,
// post vote POST up|down|none
import type { Command } from "commander";

import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import { textOf } from "../text-input.ts";
import type { CommandGroup } from "./group.ts";

const SORTS = ["hot", "new", "top"] as const;
const VOTES = { up: 1, down: -1, none: 0 } as const;

function sortOf(value: string): (typeof SORTS)[number] {
  const sort = SORTS.find((s) => s === value);
  if (!sort) throw new CliError(`--sort: '${value}' is not one of ${SORTS.join(", ")}`, EXIT.usage);
  return sort;
}

export const post: CommandGroup = {
  register(program) {
    const group = program.command("post").description("Forum posts: read, write, comment and vote");
    group
      .command("list")
      .description("List a forum's posts (or the forums, without --forum)")
      .option("--forum <slug>", "forum slug (see `gauntlet post list` without it)")
      .option("--sort <sort>", "hot, new or top", "hot")
      .option("--search <q>", "only posts whose title or body contains this")
      .option("--limit <n>", "at most this many", "25")
      .action(
        async (
          opts: { forum?: string; sort: string; search?: string; limit: string },
          cmd: Command,
        ) => {
          const limit = parsePositiveInt(opts.limit, "--limit");
          const sort = sortOf(opts.sort);
          const client = await clientOf(cmd);
          if (!opts.forum) {
            if (opts.search) throw new CliError("--search needs --forum F", EXIT.usage);
            const forums = await client.forums.list();
            if (wantsJson(cmd)) return printJson(forums);
            return printTable(
              ["slug", "name", "kind", "posts"],
              forums.map((f) => [f.slug, f.name, f.kind, f.post_count]),
              "no forums",
            );
          }
          const page = opts.search
            ? await client.forums.search({ slug: opts.forum, q: opts.search, limit })
            : await client.forums.posts({ slug: opts.forum, sort, limit });
          if (wantsJson(cmd)) return printJson(page);
          const posts = page.entries.map((e) => ("post" in e ? e.post : e));
          printTable(
            ["id", "score", "comments", "title", "created"],
            posts.map((p) => [p.id, p.score, p.comment_count, p.title, shortTime(p.created_at)]),
            "no posts",
          );
        },
      );
    group
      .command("get")
      .description("Show a post with its comments")
      .argument("<post>", "post id (post_…)")
      .option("--markdown", "print the markdown source only")
      .action(async (id: string, opts: { markdown?: boolean }, cmd: Command) => {
        const post_id = await checkId("post", id, "POST");
        const client = await clientOf(cmd);
        if (opts.markdown)
          return void process.stdout.write(await client.posts.markdown({ post_id }));
        const p = await client.posts.get({ post_id });
        if (wantsJson(cmd)) return printJson(p);
        printFields([
          ["id", p.id],
          ["forum", p.forum],
          ["title", p.title],
          ["author", p.author.user_id],
          ["score", p.score],
          ["created", shortTime(p.created_at)],
        ]);
        process.stdout.write(`\n${p.body}\n`);
        for (const c of p.comments)
          process.stdout.write(
            `\n— ${c.author.user_id} (${c.score}) ${shortTime(c.created_at)} ${c.id}\n${c.body}\n`,
          );
      });
    group
      .command("create")
      .description("Write a post")
      .requiredOption("--forum <slug>", "forum slug, e.g. general")
      .requiredOption("--title <title>", "the post's title")
      .option("--body <text>", "the post's markdown")
      .option("--file <path>", "read the markdown from a file (- for standard input)")
      .option("--text", "the body is plain text, not markdown")
      .option(
        "--key <key>",
        "idempotency key: repeating the command with it returns the first post",
      )
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
          const body = await textOf(opts, "post create");
          const client = await clientOf(cmd);
          const p = await client.posts.create({
            body: {
              forum: opts.forum,
              title: opts.title,
              body,
              content_format: opts.text ? "text" : "markdown",
              ...(opts.key ? { idempotency_key: opts.key } : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(p);
          note(`posted ${p.id} in ${p.forum}`);
        },
      );
    group
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
          const post_id = await checkId("post", id, "POST");
          const parent = opts.replyTo
            ? await checkId("comment", opts.replyTo, "--reply-to")
            : undefined;
          const body = await textOf(opts, "post comment");
          const client = await clientOf(cmd);
          const c = await client.comments.create({
            post_id,
            body: { body, ...(parent ? { parent_comment_id: parent } : {}) },
          });
          if (wantsJson(cmd)) return printJson(c);
          note(`commented ${c.id} on ${post_id}`);
        },
      );
    group
      .command("vote")
      .description("Vote on a post (or on one of its comments with --comment)")
      .argument("<post>", "post id (post_…)")
      .argument("<vote>", "up, down or none")
      .option("--comment <comment>", "vote on this comment of the post (cmt_…)")
      .action(async (id: string, vote: string, opts: { comment?: string }, cmd: Command) => {
        const post_id = await checkId("post", id, "POST");
        const value = Object.entries(VOTES).find(([name]) => name === vote)?.[1];
        if (value === undefined)
          throw new CliError(`VOTE: '${vote}' is not one of up, down, none`, EXIT.usage);
        const client = await clientOf(cmd);
        if (opts.comment) {
          const comment_id = await checkId("comment", opts.comment, "--comment");
          const c = await client.comments.vote({ post_id, comment_id, body: { value } });
          if (wantsJson(cmd)) return printJson(c);
          return note(`comment ${c.id}: score ${c.score}, your vote ${c.my_vote}`);
        }
        const p = await client.posts.vote({ post_id, body: { value } });
        if (wantsJson(cmd)) return printJson(p);
        note(`post ${p.id}: score ${p.score}, your vote ${p.my_vote}`);
      });
  },
};
