// Each runner process works in a directory of its own under the work directory, and records
// there the process groups its episodes start. A runner that is killed (SIGKILL, power loss)
// cannot end those groups; the next runner on the same work directory does, then removes
// the dead runner's files. Live runners sharing the work directory are left alone.
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

import { removeEpisodeLeftovers } from "../episode/runtimes/docker.ts";
import { episodeDir } from "./episode-input.ts";
import { allProcesses, procInfo, stillRunning } from "./proc.ts";

const OWNER_FILE = "runner.json";
const PIDS_FILE = "pids";

export interface Instance {
  /** This runner's directory: `<work dir>/runners/<id>`. */
  readonly dir: string;
  /** A new, empty directory for one job's episode. */
  jobDir(jobId: string, attempt: number): Promise<string>;
  /** Notes a process group an episode started (its leader's pid), for the sweep. */
  recordGroup(jobDir: string, pid: number): void;
  /** Removes this runner's directory (on a clean exit). */
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  start_time: number | null;
  host: string;
}

export async function claimInstance(workDir: string): Promise<Instance> {
  const dir = join(workDir, "runners", `${process.pid}-${randomBytes(4).toString("hex")}`);
  await mkdir(join(dir, "jobs"), { recursive: true });
  const owner: Owner = {
    pid: process.pid,
    start_time: procInfo(process.pid)?.startTime ?? null,
    host: hostname(),
  };
  await writeFile(join(dir, OWNER_FILE), JSON.stringify(owner));
  return {
    dir,
    async jobDir(jobId, attempt) {
      const path = join(dir, "jobs", `${jobId}-${attempt}`);
      await rm(path, { recursive: true, force: true });
      await mkdir(path, { recursive: true });
      return path;
    },
    recordGroup(jobDir, pid) {
      const startTime = procInfo(pid)?.startTime ?? "";
      appendFileSync(join(jobDir, PIDS_FILE), `${pid} ${startTime}\n`);
    },
    release: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface SweepReport {
  /** Directories of dead runners removed. */
  runners: number;
  /** Process groups ended. */
  groups: number;
}

/** Ends what dead runners on this work directory left running, and removes their files. */
export async function sweepDeadRunners(workDir: string): Promise<SweepReport> {
  const root = join(workDir, "runners");
  const report: SweepReport = { runners: 0, groups: 0 };
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return report;
  }
  for (const name of names) {
    const dir = join(root, name);
    const owner = await readOwner(dir);
    // Another host's runner (a shared network directory) is not ours to judge.
    if (owner !== null && (owner.host !== hostname() || stillRunning(owner.pid, owner.start_time)))
      continue;
    report.groups += await endRecordedGroups(dir);
    await rm(dir, { recursive: true, force: true });
    report.runners += 1;
  }
  return report;
}

async function readOwner(dir: string): Promise<Owner | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, OWNER_FILE), "utf8")) as Partial<Owner>;
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string") return null;
    return {
      pid: parsed.pid,
      start_time: typeof parsed.start_time === "number" ? parsed.start_time : null,
      host: parsed.host,
    };
  } catch {
    return null;
  }
}

async function endRecordedGroups(dir: string): Promise<number> {
  let jobs: string[];
  try {
    jobs = await readdir(join(dir, "jobs"));
  } catch {
    return 0;
  }
  let ended = 0;
  for (const job of jobs) {
    // Containers of the docker runtime outlive their clients' process groups.
    await removeEpisodeLeftovers(episodeDir(join(dir, "jobs", job)));
    let lines: string[];
    try {
      lines = (await readFile(join(dir, "jobs", job, PIDS_FILE), "utf8")).split("\n");
    } catch {
      continue;
    }
    for (const line of lines) {
      const [pidText, startText] = line.trim().split(" ");
      const pid = Number(pidText);
      const startTime = startText ? Number(startText) : null;
      if (!Number.isInteger(pid) || pid <= 1 || startTime === null || !Number.isFinite(startTime))
        continue;
      if (groupIsOurs(pid, startTime) && killGroup(pid)) ended += 1;
    }
  }
  return ended;
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
  } catch {
    return false;
  }
}
