// Each runner process works in a directory of its own under the work directory, and records
// there the process groups its episodes start. A runner that is killed (SIGKILL, power loss)
// cannot end those groups; the next runner on the same work directory does, then removes
// the dead runner's files. Live runners sharing the work directory are left alone.
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

import { unlessGone } from "@gauntlet/core";

import { commissionerDir } from "../commissioner/run-commissioner.ts";
import { removeEpisodeLeftovers } from "../episode/runtimes/docker.ts";
import { removeTree } from "../episode/runtimes/remove-tree.ts";
import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import { episodeDir } from "./episode-input.ts";
import { allProcesses, procInfo, stillRunning } from "./proc.ts";

const OWNER_FILE = "runner.json";
const PIDS_FILE = "pids";
/** A runner's directory while it is being claimed, before its owner file is written. */
const CLAIMING = ".claiming-";
/** A claim that old and still without its owner file was never finished (its runner died). */
const UNFINISHED_CLAIM_MS = 60_000;

export interface Instance {
  /** This runner's directory: `<work dir>/runners/<id>`. */
  readonly dir: string;
  /**
   * A new, empty directory for one job's episode, of a random name: a sandbox sees its host
   * path in /proc/self/mountinfo (bubblewrap cannot hide a bind mount's source), so the name
   * carries no job id.
   */
  jobDir(): Promise<string>;
  /** Notes a process group an episode started (its leader's pid), for the sweep. */
  recordGroup(jobDir: string, pid: number): void;
  /** Removes this runner's directory (on a clean exit). */
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  start_time: number | null;
  host: string;
  /** The runtime its episodes ran on (null in a record from before it was kept). */
  runtime: string | null;
}

export async function claimInstance(workDir: string, runtime: RuntimeKind): Promise<Instance> {
  const id = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const dir = join(workDir, "runners", id);
  const claiming = join(workDir, "runners", `${CLAIMING}${id}`);
  await mkdir(join(claiming, "jobs"), { recursive: true });
  const owner: Owner = {
    pid: process.pid,
    start_time: procInfo(process.pid)?.startTime ?? null,
    host: hostname(),
    runtime,
  };
  await writeFile(join(claiming, OWNER_FILE), JSON.stringify(owner));
  // The directory gets its name once its owner is recorded: a runner starting at the same time
  // would take a directory without an owner for a dead runner's, and remove it.
  await rename(claiming, dir);
  return {
    dir,
    async jobDir() {
      const path = join(dir, "jobs", randomBytes(8).toString("hex"));
      await mkdir(path);
      return path;
    },
    recordGroup(jobDir, pid) {
      const startTime = procInfo(pid)?.startTime ?? "";
      appendFileSync(join(jobDir, PIDS_FILE), `${pid} ${startTime}\n`);
    },
    release: () => removeTree(dir),
  };
}

export interface SweepReport {
  /** Directories of dead runners removed. */
  runners: number;
  /** Process groups ended. */
  groups: number;
  /**
   * What could not be cleaned up, a line each (docker not answering); those runners'
   * directories are kept, so that the next sweep tries again.
   */
  problems: string[];
}

/** Ends what dead runners on this work directory left running, and removes their files. */
export async function sweepDeadRunners(workDir: string): Promise<SweepReport> {
  const root = join(workDir, "runners");
  const report: SweepReport = { runners: 0, groups: 0, problems: [] };
  const names = (await unlessGone(readdir(root))) ?? [];
  for (const name of names) {
    const dir = join(root, name);
    const owner = await readOwner(dir);
    // Another host's runner (a shared network directory) is not ours to judge.
    if (owner !== null && (owner.host !== hostname() || stillRunning(owner.pid, owner.start_time)))
      continue;
    if (owner === null && name.startsWith(CLAIMING) && !(await claimUnfinished(dir))) continue;
    // Only the docker runtime leaves containers; a record that does not say may have.
    const ended = await endRecordedGroups(dir, owner?.runtime === "docker" || !owner?.runtime);
    report.groups += ended.groups;
    if (ended.problems.length > 0) {
      report.problems.push(...ended.problems);
      continue;
    }
    await removeTree(dir);
    report.runners += 1;
  }
  return report;
}

/** The owner a runner's directory records; null where there is none, or none that reads. */
async function readOwner(dir: string): Promise<Owner | null> {
  const text = await unlessGone(readFile(join(dir, OWNER_FILE), "utf8"));
  if (text === null) return null;
  let parsed: Partial<Owner>;
  try {
    parsed = JSON.parse(text) as Partial<Owner>;
  } catch {
    // Cut short by its runner's death while being written.
    return null;
  }
  if (typeof parsed.pid !== "number" || typeof parsed.host !== "string") return null;
  return {
    pid: parsed.pid,
    start_time: typeof parsed.start_time === "number" ? parsed.start_time : null,
    host: parsed.host,
    runtime: typeof parsed.runtime === "string" ? parsed.runtime : null,
  };
}

/** A claim still without its owner: unfinished (its runner died) once it is old enough. */
async function claimUnfinished(dir: string): Promise<boolean> {
  const info = await unlessGone(stat(dir));
  return info !== null && Date.now() - info.mtimeMs > UNFINISHED_CLAIM_MS;
}

async function endRecordedGroups(
  dir: string,
  containers: boolean,
): Promise<{ groups: number; problems: string[] }> {
  const jobs = (await unlessGone(readdir(join(dir, "jobs")))) ?? [];
  let ended = 0;
  const problems: string[] = [];
  for (const job of jobs) {
    // Containers of the docker runtime outlive their clients' process groups: an episode's, or
    // a commissioner's (which, hanging, would never end).
    const jobDir = join(dir, "jobs", job);
    if (containers)
      try {
        for (const box of [episodeDir(jobDir), commissionerDir(jobDir)])
          await removeEpisodeLeftovers(box);
      } catch (error) {
        problems.push(
          `the containers of the job in ${jobDir} may still run (the next start tries again): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    const pids = await unlessGone(readFile(join(dir, "jobs", job, PIDS_FILE), "utf8"));
    if (pids === null) continue;
    const lines = pids.split("\n");
    for (const line of lines) {
      const [pidText, startText] = line.trim().split(" ");
      const pid = Number(pidText);
      const startTime = startText ? Number(startText) : null;
      if (!Number.isInteger(pid) || pid <= 1 || startTime === null || !Number.isFinite(startTime))
        continue;
      if (groupIsOurs(pid, startTime) && killGroup(pid)) ended += 1;
    }
  }
  return { groups: ended, problems };
}

/**
 * The group led by `pid` is the one an episode started when its leader still runs with the
 * recorded start time, or — the leader gone — when members of that group started no earlier.
 */
function groupIsOurs(pid: number, startTime: number): boolean {
  const leader = procInfo(pid);
  // A pid that still names a group is never reused, so a leader with another start time means our group is gone.
  if (leader !== null) return leader.startTime === startTime;
  return allProcesses().some((p) => p.pgid === pid && p.startTime >= startTime && !p.zombie);
}

function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, "SIGKILL");
    return true;
  } catch (error) {
    // Gone since it was looked at, or not ours to end after all.
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "ESRCH" || code === "EPERM") return false;
    throw error;
  }
}
