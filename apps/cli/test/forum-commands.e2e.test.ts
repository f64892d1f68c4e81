// `gauntlet post …` and `gauntlet wiki …` against a real server, run as a child process, with
// two users: idempotent posting by --key, votes, comments, and the wiki edit conflict.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  Forum,
  ForumSearchPage,
  Post,
  PostDetail,
  PostPage,
  WikiPage,
  WikiRevision,
  WikiSearchHit,
} from "@gauntlet/core";
import { createClient } from "@gauntlet/sdk";
import { packDirectory, startTestServer, type TestServer } from "@gauntlet/server/testing";

import { json, newConfigHome, runCli, type CliOptions } from "./run-cli.ts";

const gridrush = join(import.meta.dirname, "../../../examples/coworlds/gridrush");

let server: TestServer;
let home: string;
let ada: { token: string };
let bob: { token: string };
const wikiSlug = "cli-forum-world";

function cli(args: readonly string[], options: CliOptions & { token?: string } = {}) {
  return runCli(args, {
    ...options,
    env: {
      GAUNTLET_SERVER: server.url,
      GAUNTLET_TOKEN: options.token ?? ada.token,
      XDG_CONFIG_HOME: home,
      ...options.env,
    },
  });
}

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  ada = await server.newUser();
  bob = await server.newUser();
  const admin = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
  });
  const { upload_id } = await admin.coworlds.uploadBundle({
    body: new Uint8Array(await packDirectory(gridrush)),
  });
  const manifest = JSON.parse(readFileSync(join(gridrush, "coworld_manifest.json"), "utf8")) as {
    game: Record<string, unknown>;
  };
  await admin.coworlds.upload({
    body: {
      manifest: { ...manifest, game: { ...manifest.game, name: wikiSlug } },
      bundle_upload_id: upload_id,
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("gauntlet post", () => {
  it("lists forums, creates a post once per --key, comments, votes and reads it back", async () => {
    const forums = json(await cli(["post", "list", "--json"])) as Forum[];
    expect(forums.map((f) => f.slug)).toEqual(
      expect.arrayContaining(["general", "cli-forum-world"]),
    );

    const args = [
      "post",
      "create",
      "--forum",
      "general",
      "--title",
      "From the CLI",
      "--file",
      "-",
      "--key",
      "cli-1",
      "--json",
    ];
    const first = json(await cli(args, { input: "Hello from **stdin**\n" })) as Post;
    const again = json(await cli(args, { input: "Hello from **stdin**\n" })) as Post;
    expect(again.id).toBe(first.id);
    expect(first.body_html).toContain("<strong>stdin</strong>");

    const comment = await cli(["post", "comment", first.id, "--body", "Nice one"], {
      token: bob.token,
    });
    expect(comment.code, comment.stderr).toBe(0);
    expect(comment.stderr).toMatch(/commented cmt_/);
    const voted = json(
      await cli(["post", "vote", first.id, "up", "--json"], { token: bob.token }),
    ) as Post;
    expect(voted).toMatchObject({ score: 1, my_vote: 1 });
    expect(
      (json(await cli(["post", "vote", first.id, "down", "--json"], { token: bob.token })) as Post)
        .score,
    ).toBe(-1);

    const detail = json(await cli(["post", "get", first.id, "--json"])) as PostDetail;
    expect(detail.comments.map((c) => c.body)).toEqual(["Nice one"]);
    expect((await cli(["post", "get", first.id, "--markdown"])).stdout).toBe(
      "# From the CLI\n\nHello from **stdin**\n",
    );
    const listed = json(
      await cli(["post", "list", "--forum", "general", "--sort", "new", "--json"]),
    ) as PostPage;
    expect(listed.entries.map((p) => p.id)).toContain(first.id);
    const found = json(
      await cli(["post", "list", "--forum", "general", "--search", "from the cli", "--json"]),
    ) as ForumSearchPage;
    expect(found.entries.map((e) => e.post.id)).toEqual([first.id]);
    expect((await cli(["post", "list", "--forum", "general"])).stdout).toContain("From the CLI");
  });

  it("explains bad input in one line with a usage exit code", async () => {
    const noBody = await cli(["post", "create", "--forum", "general", "--title", "x"]);
    expect(noBody.code).toBe(2);
    expect(noBody.stderr.trim().split("\n")).toHaveLength(1);
    expect(
      (await cli(["post", "vote", "post_00000000-0000-4000-8000-000000000000", "sideways"])).code,
    ).toBe(2);
    expect((await cli(["post", "get", "not-an-id"])).code).toBe(2);
    expect((await cli(["post", "list", "--sort", "best"])).code).toBe(2);
    expect((await cli(["post", "get", "post_00000000-0000-4000-8000-000000000000"])).code).toBe(3);
  });
});

describe("gauntlet wiki", () => {
  it("creates and edits a page, refuses a stale base in one line, shows history and finds pages", async () => {
    const created = json(
      await cli(["wiki", "edit", wikiSlug, "Tips", "--body", "Go north.", "--json"]),
    ) as WikiPage;
    expect(created.revision_count).toBe(1);
    const edited = json(
      await cli(
        [
          "wiki",
          "edit",
          wikiSlug,
          "Tips",
          "--body",
          "Go north, then east.",
          "--summary",
          "more",
          "--json",
        ],
        { token: bob.token },
      ),
    ) as WikiPage;
    expect(edited.revision_count).toBe(2);
    const stale = await cli([
      "wiki",
      "edit",
      wikiSlug,
      "Tips",
      "--body",
      "Go south.",
      "--base",
      created.revision_id,
    ]);
    expect(stale.code).toBe(1);
    expect(stale.stderr.trim()).toBe(
      `gauntlet: edit conflict: ${wikiSlug}/Tips is now at revision ${edited.revision_id}; merge with \`gauntlet wiki get ${wikiSlug} Tips\` and run again with --base ${edited.revision_id}`,
    );

    expect((await cli(["wiki", "get", wikiSlug, "Tips"])).stdout).toBe("Go north, then east.\n");
    const history = json(
      await cli(["wiki", "history", wikiSlug, "Tips", "--json"]),
    ) as WikiRevision[];
    expect(history.map((r) => r.id)).toEqual([edited.revision_id, created.revision_id]);
    const hits = json(await cli(["wiki", "search", wikiSlug, "EAST", "--json"])) as WikiSearchHit[];
    expect(hits.map((h) => h.page.page)).toEqual(["Tips"]);
    expect((await cli(["wiki", "get", wikiSlug, "Nope"])).code).toBe(3);
    expect((await cli(["wiki", "edit", "no-such-wiki", "Tips", "--body", "x"])).code).toBe(3);
  });
});
