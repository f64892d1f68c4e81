// `gauntlet post …` without a process: what the verbs parse their flags into, bad input as one
// plain line and exit 2, and posts, comments and votes on a terminal, off one and with --json,
// against a real server on a free port.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import type { Forum, Post, PostDetail, PostPage } from "@gauntlet/core";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { commentCommand, type CommentOptions } from "./comment.ts";
import { createCommand, type CreateOptions } from "./create.ts";
import { listCommand, type ListOptions } from "./list.ts";
import { voteCommand, type VoteOptions } from "./vote.ts";

let bob = "";
const cli = useCliServer(async (server) => {
  bob = (await server.newUser()).token;
  return (await server.newUser()).token;
});

const POST = "post_00000000-0000-4000-8000-000000000000";
const CMT = "cmt_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("list: hot by default, 25 at most, the forums without --forum", async () => {
    expect(
      await parsed<ListOptions>((parent, run) => listCommand(parent, cli.factory(), run), ["list"]),
    ).toEqual({ forum: null, sort: "hot", search: null, limit: 25, json: false });
    expect(
      await parsed<ListOptions>(
        (parent, run) => listCommand(parent, cli.factory(), run),
        ["list", "--forum", "general", "--search", "bots", "--limit", "3", "--json"],
      ),
    ).toEqual({ forum: "general", sort: "hot", search: "bots", limit: 3, json: true });
  });

  it("create: the text's source, its format and the key", async () => {
    expect(
      await parsed<CreateOptions>(
        (parent, run) => createCommand(parent, cli.factory(), run),
        ["create", "--forum", "general", "--title", "Hi", "--file", "-", "--text", "--key", "k1"],
      ),
    ).toEqual({
      forum: "general",
      title: "Hi",
      text: { file: "-" },
      format: "text",
      key: "k1",
      json: false,
    });
  });

  it("comment and vote: ids checked, the vote as a number", async () => {
    expect(
      await parsed<CommentOptions>(
        (parent, run) => commentCommand(parent, cli.factory(), run),
        ["comment", POST, "--body", "yes", "--reply-to", CMT],
      ),
    ).toEqual({ postId: POST, replyTo: CMT, text: { body: "yes" }, json: false });
    expect(
      await parsed<VoteOptions>(
        (parent, run) => voteCommand(parent, cli.factory(), run),
        ["vote", POST, "down", "--comment", CMT, "--json"],
      ),
    ).toEqual({ postId: POST, commentId: CMT, value: -1, json: true });
  });

  it.each([
    [
      ["post", "create", "--forum", "general", "--title", "x"],
      "post create: give the text with --body TEXT or --file PATH (- for standard input), one of the two",
    ],
    [
      ["post", "create", "--forum", "general", "--title", "x", "--body", "a", "--file", "b"],
      "post create: give the text with --body TEXT or --file PATH (- for standard input), one of the two",
    ],
    [["post", "vote", POST, "sideways"], "VOTE: 'sideways' is not one of up, down, none"],
    [
      ["post", "get", "not-an-id"],
      "POST: 'not-an-id' is not a valid id (expected post_<uuid>, e.g. post_00000000-0000-4000-8000-000000000000)",
    ],
    [["post", "list", "--sort", "best"], "--sort: 'best' is not one of hot, new, top"],
    [["post", "list", "--search", "x"], "--search needs --forum F"],
    [
      ["post", "comment", POST, "--file", "-"],
      "--file - reads the text from standard input: pipe it in (… < text.md)",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    expect(await cli.gauntlet(args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: ${message}\n`,
    });
  });

  it("a post that does not exist is exit 3", async () => {
    expect((await cli.gauntlet(["post", "get", POST])).code).toBe(3);
  });
});

describe("output", () => {
  it("posts from standard input once per --key, comments from a file, votes and reads it back", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const forums = JSON.parse((await cli.gauntlet(["post", "list", "--json"])).stdout) as Forum[];
    expect(forums.map((f) => f.slug)).toContain("general");
    const table = await cli.gauntlet(["post", "list"], true);
    expect(stripVTControlCharacters(table.stdout).split("\n")[0]).toMatch(
      /^SLUG\s+NAME\s+KIND\s+POSTS$/,
    );

    const args = ["post", "create", "--forum", "general", "--title", "From the CLI", "--file", "-"];
    const keyed = [...args, "--key", "unit-1", "--json"];
    const first = JSON.parse(
      (await cli.gauntlet(keyed, { input: "Hello from **stdin**\n" })).stdout,
    ) as Post;
    const again = JSON.parse(
      (await cli.gauntlet(keyed, { input: "Hello from **stdin**\n" })).stdout,
    ) as Post;
    expect(again.id).toBe(first.id);
    expect(first.body_html).toContain("<strong>stdin</strong>");
    expect(await cli.gauntlet([...args.slice(0, -2), "--body", "plain"])).toMatchObject({
      code: 0,
      stdout: "",
      stderr: expect.stringMatching(/^posted post_\S+ in general\n$/),
    });

    const file = join(mkdtempSync(join(tmpdir(), "gauntlet-post-")), "comment.md");
    writeFileSync(file, "Nice one");
    const comment = await cli.gauntlet(["post", "comment", first.id, "--file", file], {
      token: bob,
    });
    expect(comment.stderr).toMatch(new RegExp(`^commented cmt_\\S+ on ${first.id}\\n$`));
    expect(await cli.gauntlet(["post", "vote", first.id, "up"], { token: bob })).toEqual({
      code: 0,
      stdout: "",
      stderr: `post ${first.id}: score 1, your vote 1\n`,
    });
    const down = JSON.parse(
      (await cli.gauntlet(["post", "vote", first.id, "down", "--json"], { token: bob })).stdout,
    ) as Post;
    expect([down.score, down.my_vote]).toEqual([-1, -1]);

    const detail = JSON.parse(
      (await cli.gauntlet(["post", "get", first.id, "--json"])).stdout,
    ) as PostDetail;
    expect(detail.comments.map((c) => c.body)).toEqual(["Nice one"]);
    const cmt = detail.comments[0]?.id ?? "";
    expect((await cli.gauntlet(["post", "vote", first.id, "up", "--comment", cmt])).stderr).toBe(
      `comment ${cmt}: score 1, your vote 1\n`,
    );

    const shown = await cli.gauntlet(["post", "get", first.id], true);
    const text = stripVTControlCharacters(shown.stdout);
    expect(text).toMatch(
      new RegExp(`^id:\\s+${first.id}\\nforum:\\s+general\\ntitle:\\s+From the CLI\\n`),
    );
    expect(text).toContain("\nHello from **stdin**\n");
    expect(text).toMatch(/\n— user_\S+ \(1\) .+ cmt_\S+\nNice one\n$/);
    expect(shown.stdout).not.toBe(text);
    expect((await cli.gauntlet(["post", "get", first.id, "--markdown"])).stdout).toBe(
      "# From the CLI\n\nHello from **stdin**\n",
    );

    const page = JSON.parse(
      (await cli.gauntlet(["post", "list", "--forum", "general", "--sort", "new", "--json"]))
        .stdout,
    ) as PostPage;
    expect(page.entries.map((p) => p.id)).toContain(first.id);
    const found = await cli.gauntlet(["post", "list", "--forum", "general", "--search", "stdin"]);
    expect(found.stdout.split("\n")[0]).toMatch(/^ID\s+SCORE\s+COMMENTS\s+TITLE\s+CREATED$/);
    expect(found.stdout).toContain(`${first.id}  -1     1         From the CLI`);
    expect(await cli.gauntlet(["post", "list", "--forum", "general", "--search", "zzz"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "no posts\n",
    });
  });
});
