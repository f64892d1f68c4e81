// The server SIGKILLed in the middle of a round and started again on the same storage (issue 18):
// the round resumes and settles, no episode is lost or played twice, and every settled round
// counts once in the ratings. The server runs as `gauntlet-server start` with its demo league and
// embedded runner, so the whole loop — scheduler, queue, runner, settlement — is the real one.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

import { afterAll, describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");
const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-kill-"));
const servers: ChildProcessWithoutNullStreams[] = [];

interface Started {
  process: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
}

async function startServer(): Promise<Started> {
  // A short lease: the jobs the killed server's runner held come back to the queue quickly.
  const child = spawn(process.execPath, [MAIN, "start", "--port", "0", "--data-dir", dataDir], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      GAUNTLET_LOG_LEVEL: "warn",
      GAUNTLET_LEASE_SECONDS: "3",
    },
  });
  servers.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const pattern = /alt host, at the root\):\s+(http:\/\/\S+)/;
  const deadline = Date.now() + 90_000;
  while (!pattern.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { process: child, url: pattern.exec(output)?.[1] ?? "", output: () => output };
}

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type Round = { id: string; status: string; round_number: number; completed_at: string | null };
type Page<T> = { entries: T[] };

/** Polls until `check` answers a value, or fails with what it last saw. */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  seconds: number,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

afterAll(() => {
  for (const s of servers) if (s.exitCode === null) s.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the server killed mid-round", () => {
  it("resumes the round on restart; every episode and every round counts exactly once", async () => {
    const first = await startServer();
    const [league] = await get<{ id: string }[]>(`${first.url}/v2/leagues`);
    if (!league) throw new Error("no demo league");

    // A round with some episodes done and some still to play: kill the server there.
    const caught = await until(
      "a round part-way through",
      async () => {
        const running = await get<Page<Round>>(
          `${first.url}/v2/rounds?league_id=${league.id}&status=running&limit=10`,
        );
        for (const round of running.entries) {
          const episodes = await get<Page<{ status: string }>>(
            `${first.url}/v2/episode-requests?round_id=${round.id}&limit=100`,
          );
          const done = episodes.entries.filter((e) => e.status === "completed").length;
          if (done > 0 && done < episodes.entries.length)
            return { round, done, of: episodes.entries.length };
        }
        return undefined;
      },
      90,
    );
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));

    const second = await startServer();
    const settled = await until(
      "the interrupted round to settle and two more after it",
      async () => {
        const round = await get<Round>(`${second.url}/v2/rounds/${caught.round.id}`);
        if (round.status !== "completed") return undefined;
        const later = await get<Page<Round>>(
          `${second.url}/v2/rounds?league_id=${league.id}&status=completed&limit=100`,
        );
        return later.entries.filter(
          (r) =>
            r.completed_at !== null &&
            round.completed_at !== null &&
            r.completed_at > round.completed_at,
        ).length >= 2
          ? round
          : undefined;
      },
      120,
    );
    expect(settled.status).toBe("completed");
    second.process.kill("SIGTERM");
    expect(await new Promise((resolve) => second.process.once("exit", resolve))).toBe(0);

    // The stored truth, read after a clean stop.
    const db = new DatabaseSync(join(dataDir, "gauntlet.sqlite"), { readOnly: true });
    try {
      const rounds = db
        .prepare(
          "SELECT id, status, episode_count FROM rounds WHERE league_id = ? AND status = 'completed'",
        )
        .all(league.id) as { id: string; status: string; episode_count: number }[];
      expect(rounds.length).toBeGreaterThanOrEqual(3);
      for (const round of rounds) {
        // Not lost, not doubled: exactly the episodes the round planned, each settled once.
        const episodes = db
          .prepare(
            "SELECT status, COUNT(*) AS n FROM episode_requests WHERE round_id = ? GROUP BY status",
          )
          .all(round.id) as { status: string; n: number }[];
        expect(
          episodes.reduce((sum, e) => sum + e.n, 0),
          `episodes of round ${round.id}`,
        ).toBe(round.episode_count);
        expect(
          episodes.filter((e) => e.status !== "completed"),
          `unfinished or failed episodes of round ${round.id}`,
        ).toEqual([]);
        const jobs = db
          .prepare(
            "SELECT COUNT(*) AS n FROM jobs j JOIN episode_requests e ON e.job_id = j.id WHERE e.round_id = ? AND j.status = 'completed'",
          )
          .get(round.id) as { n: number };
        expect(jobs.n, `completed jobs of round ${round.id}`).toBe(round.episode_count);
      }
      // Each settled round counts once per player: the rounds played on the rating row equal the
      // round results written, and each round's rating starts where the previous one ended.
      const ratings = db
        .prepare("SELECT player_id, rounds_played FROM ladder_ratings WHERE league_id = ?")
        .all(league.id) as { player_id: string; rounds_played: number }[];
      expect(ratings.length).toBeGreaterThan(0);
      for (const rating of ratings) {
        const results = db
          .prepare(
            "SELECT rr.result_metadata FROM round_results rr JOIN rounds r ON r.id = rr.round_id WHERE r.league_id = ? AND rr.player_id = ? ORDER BY r.completed_at, r.id",
          )
          .all(league.id, rating.player_id) as { result_metadata: string }[];
        expect(results.length, `round results of ${rating.player_id}`).toBe(rating.rounds_played);
        const chain = results.map(
          (r) => JSON.parse(r.result_metadata) as { rating_before: number; rating_after: number },
        );
        for (let i = 1; i < chain.length; i++)
          expect(
            chain[i]?.rating_before,
            `rating chain of ${rating.player_id} at round ${i + 1}`,
          ).toBe(chain[i - 1]?.rating_after);
      }
      process.stdout.write(
        `server kill: killed with ${caught.done}/${caught.of} episodes of a round done; after restart ${rounds.length} rounds settled, each with all its episodes once; ${ratings.length} rating rows consistent\n`,
      );
    } finally {
      db.close();
    }
  }, 300_000);
});
