// Every `gauntlet` and `curl` example in the README, docs/ and the packages' READMEs runs as
// written against a started server: each line of a sh/bash/shell block whose command is one of
// them is run by bash, in document order, with `gauntlet` on PATH (src/main.ts under the pinned
// Node), `GAUNTLET_SERVER`/`GAUNTLET_TOKEN`/`TOKEN` set, the README's address replaced by the test
// server's and the placeholders below filled with ids of this server. An example that cannot run
// in a test is in SKIPPED with the reason, reviewed; an example neither run nor skipped fails.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  createTestLeague,
  scriptedRunner,
  seedDemoLeague,
  startTestServer,
  type TestServer,
} from "@gauntlet/server/testing";

import { MAIN, runCommand } from "./run-cli.ts";

const ROOT = join(import.meta.dirname, "../../..");

function markdownFiles(): string[] {
  const under = (dir: string, pick: (name: string) => boolean) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      pick(e.name) ? [join(dir, e.name)] : [],
    );
  const readmes = (dir: string) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() && readdirSync(join(ROOT, dir, e.name)).includes("README.md")
        ? [join(dir, e.name, "README.md")]
        : [],
    );
  return [
    "README.md",
    ...under("docs", (n) => n.endsWith(".md")),
    ...readmes("apps"),
    ...readmes("packages"),
  ];
}

interface Example {
  file: string;
  /** The line as written, its trailing comment dropped. */
  command: string;
}

const COMMAND = /(^|\|\s*|\$\(\s*)(gauntlet|curl)(\s|$)/;

function examples(): Example[] {
  return markdownFiles().flatMap((file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    const blocks = [...text.matchAll(/```(sh|bash|shell|console)\n([\s\S]*?)```/g)];
    return blocks.flatMap((block) =>
      (block[2] ?? "").split("\n").flatMap((line) => {
        const command = line
          .replace(/^\s*\$\s+/, "")
          .replace(/\s{2,}#.*$/, "")
          .trim();
        return COMMAND.test(command) ? [{ file, command }] : [];
      }),
    );
  });
}

/** Examples a test cannot run, and why (each reviewed; a stale entry fails the test below). */
const SKIPPED: Record<string, string> = {
  "gauntlet watch":
    "the live terminal UI runs until quit (apps/tui/test/watch.e2e.test.ts drives it)",
  "gauntlet auth login --server https://gauntlet.example.com":
    "opens a browser on another host's sign-in page",
  "gauntlet auth login --no-browser": "waits for a person to paste the sign-in code",
  "gauntlet auth login --server URL": "URL stands for any server's address",
  "gauntlet events --follow": "follows the feed until interrupted",
  'gauntlet eval create --league "Spring League" --policy my-bot --top 1 --episodes 20 --wait':
    "--wait needs a runner to play 20 episodes (apps/cli/src/commands/eval/ tests cover it)",
  "gauntlet eval get xreq_…": "needs an evaluation, made only by eval create (skipped above)",
  "gauntlet eval episodes xreq_… --json": "needs an evaluation, made only by eval create",
  "gauntlet eval cancel xreq_…": "needs an evaluation, made only by eval create",
  "gauntlet episode upload results.duckdb":
    "needs a DuckDB file of episodes played elsewhere (apps/cli/src/commands/episode/ tests upload one)",
  "gauntlet play gridrush --opponent greedy --config '{\"turn_timeout_ms\": 10000}'":
    "starts a session that waits for a person in the browser (apps/cli/src/commands/play/play.test.ts)",
  "gauntlet hosted create cow_… --players 2 --spectators":
    "a hosted game waits for people to join (apps/cli/src/commands/hosted/ tests cover it)",
  "gauntlet hosted join ps_…": "needs a hosted game (above)",
  "gauntlet hosted list | get ps_… | end ps_…": "a synopsis of three commands, not one command",
  "gauntlet hosted replay cow_… https://…/artifacts/replay":
    "prints the viewer's address for any replay address (apps/cli/src/commands/hosted/ tests)",
  'gauntlet lobby create "Spring League" --seat human:user_… --seat human_open --seat league_player:Alpha':
    "names another user (user_…) to seat (apps/cli/src/commands/lobby/ tests cover lobbies)",
  "gauntlet lobby claim lby_… 1": "needs a lobby (above)",
  "gauntlet lobby claim lby_… 1 --policy-version …": "needs a lobby (above)",
  "gauntlet lobby update|seat|empty|start|launch|end|cancel lby_… …":
    "a synopsis of several commands, not one command",
};

let server: TestServer;
let work: string;
let env: Record<string, string>;
const filled: Record<string, string> = {};

function fill(command: string): string {
  let line = command.replaceAll("http://127.0.0.1:8787", server.url);
  for (const [placeholder, value] of Object.entries(filled))
    line = line.replaceAll(placeholder, value);
  // A failed request is a failed example (curl exits 0 on a 404 unless told).
  return line.replace(/(^|\|\s*|\$\(\s*)curl /, "$1curl -sS --fail-with-body ");
}

function bash(line: string) {
  return runCommand("bash", ["-euo", "pipefail", "-c", line], { cwd: work, env });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "gauntlet-docs-"));
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  const demo = await seedDemoLeague(server);
  // The CLI README's leagues, players and bot, as its examples name them.
  const spring = await createTestLeague(server, {
    adminCommissioner: true,
    divisions: [
      { name: "Premier", level: 1 },
      { name: "Challenger", level: 2 },
    ],
  });
  const token = spring.commissioner.token;
  const rename = async (id: string, name: string) => {
    const res = await fetch(`${server.url}/v2/leagues/${id}`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        // The test's commissioner is the admin, acting on a league it may not own.
        "x-use-elevated-privileges": "true",
      },
      body: JSON.stringify({ name }),
    });
    expect(res.status, await res.text()).toBe(200);
  };
  await rename(spring.league.id, "Spring League");
  const autumn = await createTestLeague(server, { adminCommissioner: true });
  await rename(autumn.league.id, "Autumn Cup");
  const alpha = await spring.addPlayer("Alpha");
  await spring.submit(await spring.addPlayer("Beta", { baseline: "wanderer" }));
  await spring.submit(alpha);

  const bin = join(work, ".bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "gauntlet"), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`, {
    mode: 0o755,
  });
  mkdirSync(join(work, "my-bot"));
  writeFileSync(join(work, "my-bot", "bot.ts"), "console.log('my bot');\n");
  const home = join(work, ".home");
  mkdirSync(home);
  env = {
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GAUNTLET_SERVER: server.url,
    GAUNTLET_TOKEN: token,
    TOKEN: token,
  };
  // my-bot exists before the examples that submit it (the README uploads it further down).
  const upload = await bash(`gauntlet policy upload ./my-bot --name my-bot --run "node bot.ts"`);
  expect(upload.code, upload.stderr).toBe(0);

  // A played round of the Spring League (its newcomers play in its lowest division): an episode
  // with a game log and seat logs.
  const lowest = spring.divisions[spring.divisions.length - 1];
  const started = await fetch(`${server.url}/v2/leagues/${spring.league.id}/trigger-round`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(started.status).toBe(200);
  const runner = await scriptedRunner(server);
  let episode = "";
  for (const job of await runner.lease()) {
    await runner.upload(job, "replay", '{"turn":1}\n');
    await runner.upload(job, "logs", "game: turn 1\n");
    await runner.upload(job, "policy-log-0", "seat 0\n");
    await runner.complete(
      job,
      job.players.map((p) => p.position),
    );
    episode = job.episode_request_id;
  }
  Object.assign(filled, {
    "<division id>": demo.divisions[0]?.id ?? "",
    "<league id>": demo.league.id,
    "ereq_…": episode,
    "div_…": lowest?.id ?? "",
  });
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const all = examples();

describe("the documentation's examples", () => {
  it("are found, and every skipped one is still an example", () => {
    expect(all.length).toBeGreaterThan(20);
    const written = new Set(all.map((e) => e.command));
    expect(Object.keys(SKIPPED).filter((c) => !written.has(c))).toEqual([]);
  });

  it.each(all.filter((e) => !(e.command in SKIPPED)).map((e) => [e.file, e.command] as const))(
    "%s: %s",
    async (_file, command) => {
      const result = await bash(fill(command));
      expect(result.code, `${fill(command)}\n${result.stderr}${result.stdout}`).toBe(0);
    },
    60_000,
  );
});
