// `gauntlet reporter …` without a process: what the verbs parse their flags into, bad input as one
// plain line and exit 2, and the output on a terminal, off one and with --json, against a real
// server on a free port.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createTestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { listCommand, type ListOptions } from "./list.ts";
import { outputPostCommand, type OutputPostOptions } from "./output-post.ts";
import { registerCommand, type RegisterOptions } from "./register.ts";
import { runsOpenCommand, type RunsOpenOptions } from "./runs-open.ts";

let token = "";

const cli = useCliServer(async (server) => {
  token = (await server.newUser()).token;
  return token;
});
const { gauntlet, sdk, factory } = cli;

const RUN = "rrun_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("register: defaults to a general, manual reporter", async () => {
    expect(
      await parsed<RegisterOptions>(
        (parent, run) => registerCommand(parent, factory(), run),
        ["register", "Recap"],
      ),
    ).toEqual({ name: "Recap", description: null, type: "general", mode: "manual", json: false });
  });

  it("list: the filters, and --limit as a number", async () => {
    expect(
      await parsed<ListOptions>(
        (parent, run) => listCommand(parent, factory(), run),
        ["list", "-q", "recap", "--mode", "live", "--limit", "5", "--json"],
      ),
    ).toEqual({ query: "recap", type: null, mode: "live", author: null, limit: 5, json: true });
  });

  it("runs open: one subject, checked", async () => {
    const divisionId = "div_00000000-0000-4000-8000-000000000000";
    expect(
      await parsed<RunsOpenOptions>(
        (parent, run) => runsOpenCommand(parent, factory(), run),
        ["open", "rptr_00000000-0000-4000-8000-000000000000", "--division", divisionId],
      ),
    ).toEqual({
      reporterId: "rptr_00000000-0000-4000-8000-000000000000",
      subject: { subject_type: "division", subject_id: divisionId },
      json: false,
    });
  });

  it("runs open: a division by its name, or a clear error listing what there is", async () => {
    const tl = await createTestLeague(cli.server, { divisions: [{ name: "Premier" }] });
    await cli.sdk(tl.commissioner.token).leagues.update({
      league_id: tl.league.id,
      body: { name: "Reporter League" },
    });
    const [premier] = tl.divisions;
    const reporter = "rptr_00000000-0000-4000-8000-000000000000";
    expect(
      await parsed<RunsOpenOptions>(
        (parent, run) => runsOpenCommand(parent, factory(), run),
        ["open", reporter, "--division", "premier"],
      ),
    ).toMatchObject({ subject: { subject_type: "division", subject_id: premier?.id } });
    const unknown = await gauntlet(["reporter", "runs", "open", reporter, "--division", "Premie"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain(
      `gauntlet: --division: no division named 'Premie' (did you mean Premier (Reporter League, ${premier?.id ?? ""})`,
    );
  });

  it("output post: the name from the path, the key from GAUNTLET_REPORTER_KEY", async () => {
    vi.stubEnv("GAUNTLET_REPORTER_KEY", "rptk_from_env");
    expect(
      await parsed<OutputPostOptions>(
        (parent, run) => outputPostCommand(parent, factory(), run),
        ["post", "out/week-1.html", "--run", RUN, "--type", "html"],
      ),
    ).toEqual({
      runId: RUN,
      file: "out/week-1.html",
      name: "week-1.html",
      type: "html",
      mediaType: null,
      key: "rptk_from_env",
      json: false,
    });
  });

  it.each([
    [
      ["reporter", "list", "--mode", "sometimes"],
      "gauntlet: --mode: expected manual or live, got 'sometimes'\n",
    ],
    [
      ["reporter", "runs", "open", "rptr_00000000-0000-4000-8000-000000000000"],
      "gauntlet: give exactly one of --episode, --round, --division or --text\n",
    ],
    [["reporter", "output", "list"], "gauntlet: give exactly one of --run or --reporter\n"],
    [
      ["reporter", "get", "rptr_nope"],
      "gauntlet: REPORTER: 'rptr_nope' is not a valid id (expected rptr_<uuid>, e.g. rptr_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["reporter", "output", "post", "-", "--run", RUN, "--key", "k"],
      "gauntlet: --name is required when the output is read from standard input\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr });
  });

  it("output post without a key says where to put it", async () => {
    vi.stubEnv("GAUNTLET_REPORTER_KEY", "");
    const refused = await gauntlet(["reporter", "output", "post", "a.html", "--run", RUN]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^gauntlet: no reporter key: set GAUNTLET_REPORTER_KEY/);
  });
});

describe("output", () => {
  it("registers, shows, lists, opens a run, posts with the key and lists the outputs", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const registered = await gauntlet(["reporter", "register", "Weekly Recap", "--type", "recap"]);
    expect(registered.code).toBe(0);
    const id = /^id:\s+(rptr_\S+)$/m.exec(registered.stdout)?.[1] ?? "";
    const key = /^key:\s+(rptk_\S+)$/m.exec(registered.stdout)?.[1] ?? "";
    expect(registered.stderr).toMatch(/^the key is shown only now/);
    // The same name again updates that reporter and shows no key.
    const again = await gauntlet(["reporter", "register", "Weekly Recap", "--type", "recap"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^id:\\s+${id}\n`));
    expect(again.stdout).not.toMatch(/^key:/m);
    expect(again.stderr).toMatch(/^updated your reporter of that name; its key is unchanged/);

    expect(JSON.parse((await gauntlet(["reporter", "get", id, "--json"])).stdout)).toEqual(
      await sdk().reporters.get({ reporter_id: id }),
    );
    const shown = await gauntlet(["reporter", "get", id]);
    expect(shown.stdout).toMatch(/^id:\s+rptr_\S+\nname:\s+Weekly Recap\n/);

    const table = await gauntlet(["reporter", "list", "-q", "weekly recap"]);
    expect(table.stdout).toMatch(
      new RegExp(
        `^ID\\s+NAME\\s+TYPE\\s+MODE\\s+RUNS\\s+OUTPUTS\\s+CREATED\\n${id}\\s+Weekly Recap\\s+recap\\s+manual\\s+0\\s+0\\s`,
      ),
    );
    const tty = await gauntlet(["reporter", "list", "-q", "weekly recap"], true);
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(table.stdout);
    expect(await gauntlet(["reporter", "list", "-q", "nothing like it"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "no reporters\n",
    });

    const opened = await gauntlet(["reporter", "runs", "open", id, "--text", "week 1", "--json"]);
    const run = JSON.parse(opened.stdout) as { id: string; subject_text: string };
    expect(run.subject_text).toBe("week 1");

    const dir = mkdtempSync(join(tmpdir(), "gauntlet-reporter-"));
    writeFileSync(join(dir, "recap.html"), "<h1>Week 1</h1>");
    const posted = await gauntlet([
      "reporter",
      "output",
      "post",
      join(dir, "recap.html"),
      "--run",
      run.id,
      "--type",
      "html",
      "--key",
      key,
    ]);
    expect(posted.stdout).toMatch(/^id:\s+\S+\nname:\s+recap\.html\nsize:\s+15\n/);

    expect(
      JSON.parse(
        (await gauntlet(["reporter", "output", "list", "--run", run.id, "--json"])).stdout,
      ),
    ).toEqual(await sdk().reporterRuns.output({ reporter_run_id: run.id }));
    const outputs = await gauntlet(["reporter", "output", "list", "--reporter", id]);
    expect(outputs.stdout).toMatch(
      new RegExp(
        `^ID\\s+RUN\\s+NAME\\s+TYPE\\s+BYTES\\s+CREATED\\n\\S+\\s+${run.id}\\s+recap\\.html\\s+html\\s+15\\s`,
      ),
    );

    // FILE '-' reads the output from standard input, byte for byte.
    const piped = await gauntlet(
      ["reporter", "output", "post", "-", "--name", "piped.html", "--run", run.id, "--key", key],
      { input: "<p>piped</p>" },
    );
    expect(piped.stdout).toMatch(/^id:\s+\S+\nname:\s+piped\.html\nsize:\s+12\n/);

    const rotated = await gauntlet(["reporter", "rotate-key", id]);
    expect(rotated.stdout).toMatch(new RegExp(`^id:\\s+${id}\\nkey:\\s+rptk_`));
    expect(rotated.stdout).not.toContain(key);
    const stale = await gauntlet([
      "reporter",
      "output",
      "post",
      join(dir, "recap.html"),
      "--run",
      run.id,
      "--key",
      key,
    ]);
    expect(stale.code).toBe(4);
    expect(stale.stderr.trim().split("\n")).toHaveLength(1);
  });
});
