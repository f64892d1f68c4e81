// A runner killed with SIGKILL leaves its episodes' process groups behind; the next runner on
// the same work directory ends them — and leaves a live runner's alone.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { chmod, mkdir, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { isRunning } from "../../testing/episodes.ts";
import { claimInstance, sweepDeadRunners } from "./instance-dir.ts";
import { allProcesses, procInfo } from "./proc.ts";

const workDir = mkdtempSync(join(tmpdir(), "gauntlet-sweep-"));
const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(workDir, { recursive: true, force: true });
});

/** Polls until `probe` gives a value (processes start and die in their own time). */
async function until<T>(probe: () => T | null): Promise<T> {
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A process group like an episode's: a leader with a child, both living until killed. */
function orphanGroup(): number {
  const child = spawn("sh", ["-c", "sleep 300 & sleep 300"], { detached: true, stdio: "ignore" });
  child.unref();
  if (child.pid === undefined) throw new Error("no pid");
  started.push(child.pid);
  return child.pid;
}

async function deadPid(): Promise<number> {
  const child = spawn("true");
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid ?? 999_999;
}

async function fakeRunnerDir(
  name: string,
  ownerPid: number,
  groups: number[],
  runtime = "sandbox",
): Promise<string> {
  const dir = join(workDir, "runners", name);
  await mkdir(join(dir, "jobs", "job-1"), { recursive: true });
  await writeFile(
    join(dir, "runner.json"),
    JSON.stringify({
      pid: ownerPid,
      start_time: procInfo(ownerPid)?.startTime ?? 1,
      host: hostname(),
      runtime,
    }),
  );
  await writeFile(
    join(dir, "jobs", "job-1", "pids"),
    groups.map((pid) => `${pid} ${procInfo(pid)?.startTime ?? ""}\n`).join(""),
  );
  return dir;
}

describe("sweepDeadRunners", () => {
  it("ends the process groups a dead runner recorded and removes its directory", async () => {
    const group = orphanGroup();
    // The leader and its child, once both have started.
    const members = await until(() => {
      const found = allProcesses().filter((p) => p.pgid === group);
      return found.length >= 2 ? found : null;
    });
    const dir = await fakeRunnerDir("dead", await deadPid(), [group]);

    const report = await sweepDeadRunners(workDir);

    expect(report).toEqual({ runners: 1, groups: 1, problems: [] });
    await until(() => members.every((m) => !isRunning(m.pid)) || null);
    expect(existsSync(dir)).toBe(false);
  });

  it("leaves a live runner's groups and files alone", async () => {
    const group = orphanGroup();
    const live = await claimInstance(workDir, "sandbox");
    const jobDir = await live.jobDir();
    live.recordGroup(jobDir, group);

    const report = await sweepDeadRunners(workDir);

    expect(report).toEqual({ runners: 0, groups: 0, problems: [] });
    expect(isRunning(group)).toBe(true);
    expect(existsSync(jobDir)).toBe(true);
    await live.release();
    expect(existsSync(live.dir)).toBe(false);
  });

  it("does not kill a process that merely reuses a recorded pid", async () => {
    const stranger = orphanGroup();
    const dir = await fakeRunnerDir("dead-2", await deadPid(), []);
    // The record says the group's leader started at another time than the stranger did.
    await writeFile(
      join(dir, "jobs", "job-1", "pids"),
      `${stranger} ${(procInfo(stranger)?.startTime ?? 0) - 1}\n`,
    );

    expect(await sweepDeadRunners(workDir)).toEqual({ runners: 1, groups: 0, problems: [] });
    expect(isRunning(stranger)).toBe(true);
  });

  it("never takes a runner starting at the same moment for a dead one", async () => {
    for (let i = 0; i < 40; i += 1) {
      const [claimed] = await Promise.all([
        claimInstance(workDir, "sandbox"),
        sweepDeadRunners(workDir),
      ]);
      expect(existsSync(join(claimed.dir, "runner.json")), `round ${i}`).toBe(true);
      await claimed.release();
    }
  });

  it("removes a claim its runner never finished, once it is a minute old", async () => {
    const unfinished = join(workDir, "runners", ".claiming-4242-0a0b0c0d");
    await mkdir(join(unfinished, "jobs"), { recursive: true });

    await sweepDeadRunners(workDir);
    expect(existsSync(unfinished)).toBe(true);

    const longAgo = new Date(Date.now() - 120_000);
    await utimes(unfinished, longAgo, longAgo);
    await sweepDeadRunners(workDir);
    expect(existsSync(unfinished)).toBe(false);
  });

  it("keeps a dead runner's directory, and says why, when docker does not answer", async () => {
    const bin = mkdtempSync(join(tmpdir(), "gauntlet-fake-docker-"));
    await writeFile(
      join(bin, "docker"),
      "#!/bin/sh\necho 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock.' >&2\nexit 1\n",
    );
    await chmod(join(bin, "docker"), 0o755);
    const dir = await fakeRunnerDir("dead-3", await deadPid(), [], "docker");
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ""}`;
    try {
      const report = await sweepDeadRunners(workDir);
      expect(report.runners).toBe(0);
      expect(report.problems).toHaveLength(1);
      expect(report.problems[0]).toMatch(
        /^the containers of the job in .*dead-3.* may still run \(the next start tries again\): docker ps failed: Cannot connect to the Docker daemon/,
      );
      expect(existsSync(dir)).toBe(true);
    } finally {
      process.env.PATH = path;
      rmSync(bin, { recursive: true, force: true });
    }
    // With docker answering again (or no docker client at all), the next sweep removes it.
    process.env.PATH = "/usr/bin:/bin";
    try {
      expect((await sweepDeadRunners(workDir)).runners).toBeGreaterThanOrEqual(1);
    } finally {
      process.env.PATH = path;
    }
    expect(existsSync(dir)).toBe(false);
  });
});
