// `gauntlet wiki …` without a process: what the verbs parse their arguments into, bad input as one
// plain line, and pages, edits, history and search on a terminal, off one and with --json,
// against a real server on a free port whose one coworld has a wiki.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import type { WikiPage, WikiRevision, WikiSearchHit } from "@gauntlet/core";
import { createTestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { editCommand, type EditOptions } from "./edit.ts";
import { historyCommand, type HistoryOptions } from "./history.ts";

let bob = "";
let slug = "";
const cli = useCliServer(async (server) => {
  const league = await createTestLeague(server);
  bob = (await server.newUser()).token;
  return league.commissioner.token;
});

describe("parsing", () => {
  it("edit: from the current revision unless --base; none creates", async () => {
    const edit = (args: string[]) =>
      parsed<EditOptions>(
        (parent, run) => editCommand(parent, cli.factory(), run),
        ["edit", "w", "Tips", ...args],
      );
    expect(await edit(["--body", "Go"])).toEqual({
      slug: "w",
      page: "Tips",
      text: { body: "Go" },
      base: "current",
      summary: null,
      json: false,
    });
    expect(await edit(["--file", "tips.md", "--base", "none", "--summary", "new"])).toMatchObject({
      text: { file: "tips.md" },
      base: { revision: null },
      summary: "new",
    });
    expect(await edit(["--body", "Go", "--base", "rev_1"])).toMatchObject({
      base: { revision: "rev_1" },
    });
  });

  it("history: --limit as a number", async () => {
    expect(
      await parsed<HistoryOptions>(
        (parent, run) => historyCommand(parent, cli.factory(), run),
        ["history", "w", "Tips", "--limit", "2", "--json"],
      ),
    ).toEqual({ slug: "w", page: "Tips", limit: 2, json: true });
  });

  it.each([
    [
      ["wiki", "edit", "w", "Tips"],
      "wiki edit: give the text with --body TEXT or --file PATH (- for standard input), one of the two",
    ],
    [["wiki", "search", "w", "  "], "QUERY: give some text to look for"],
    [
      ["wiki", "history", "w", "Tips", "--limit", "0"],
      "--limit: expected a positive whole number, got '0'",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    expect(await cli.gauntlet(args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: ${message}\n`,
    });
  });
});

describe("output", () => {
  it("lists the wikis, creates and edits a page, refuses a stale base, shows history and finds it", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const listed = await cli.gauntlet(["wiki", "list"], true);
    const rows = stripVTControlCharacters(listed.stdout).trimEnd().split("\n");
    expect(rows[0]).toMatch(/^SLUG\s+NAME\s+PAGES$/);
    slug = /^(gridrush-\S+)/m.exec(rows.slice(1).join("\n"))?.[1] ?? "";
    expect(slug).not.toBe("");
    expect(listed.stdout).not.toBe(stripVTControlCharacters(listed.stdout));

    const created = await cli.gauntlet(["wiki", "edit", slug, "Tips", "--file", "-"], {
      input: "Go north.",
    });
    expect(created.stderr).toMatch(new RegExp(`^saved ${slug}/Tips as rev_\\S+\\n$`));
    const first = /as (\S+)\n/.exec(created.stderr)?.[1] ?? "";
    const edited = JSON.parse(
      (
        await cli.gauntlet(
          [
            "wiki",
            "edit",
            slug,
            "Tips",
            "--body",
            "Go north, then east.",
            "--summary",
            "more",
            "--json",
          ],
          { token: bob },
        )
      ).stdout,
    ) as WikiPage;
    expect(edited.revision_count).toBe(2);
    expect(
      await cli.gauntlet(["wiki", "edit", slug, "Tips", "--body", "Go south.", "--base", first]),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: `gauntlet: edit conflict: ${slug}/Tips is now at revision ${edited.revision_id}; merge with \`gauntlet wiki get ${slug} Tips\` and run again with --base ${edited.revision_id}\n`,
    });

    const got = await cli.gauntlet(["wiki", "get", slug, "Tips"]);
    expect(got.stdout).toBe("Go north, then east.\n");
    expect(got.stderr).toMatch(
      new RegExp(`^revision ${edited.revision_id} \\(2 in all\\), 2\\d{3}-`),
    );

    const history = await cli.gauntlet(["wiki", "history", slug, "Tips"]);
    expect(history.stdout.split("\n")[0]).toMatch(/^REVISION\s+AUTHOR\s+WHEN\s+SUMMARY$/);
    expect(
      history.stdout
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual([edited.revision_id, first]);
    expect(history.stdout).toMatch(/ more\n/);
    const revisions = JSON.parse(
      (await cli.gauntlet(["wiki", "history", slug, "Tips", "--limit", "1", "--json"])).stdout,
    ) as WikiRevision[];
    expect(revisions.map((r) => r.id)).toEqual([edited.revision_id]);

    const hits = JSON.parse(
      (await cli.gauntlet(["wiki", "search", slug, "EAST", "--json"])).stdout,
    ) as WikiSearchHit[];
    expect(hits.map((h) => h.page.page)).toEqual(["Tips"]);
    expect((await cli.gauntlet(["wiki", "search", slug, "EAST"])).stdout).toMatch(
      /^PAGE\s+UPDATED\s+SNIPPET\nTips\s+2\d{3}-/,
    );
    expect(await cli.gauntlet(["wiki", "search", slug, "west"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "no pages found\n",
    });
    expect((await cli.gauntlet(["wiki", "get", slug, "Nope"])).code).toBe(3);
    expect((await cli.gauntlet(["wiki", "edit", "no-such-wiki", "Tips", "--body", "x"])).code).toBe(
      3,
    );
  });
});
