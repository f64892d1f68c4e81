// What /proc says about a process: its group and its start time (clock ticks since boot).
// The start time tells a process from a later one that reuses its pid. Linux only; elsewhere
// every lookup answers null and callers fall back to what they can check.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  pgid: number;
  startTime: number;
  zombie: boolean;
}

export function procInfo(pid: number): ProcInfo | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces and parentheses): state is field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const pgid = Number(fields[2]);
  const startTime = Number(fields[19]);
  if (!Number.isInteger(pgid) || !Number.isFinite(startTime)) return null;
  return { pid, pgid, startTime, zombie: fields[0] === "Z" };
}

export function hasProc(): boolean {
  return procInfo(process.pid) !== null;
}

export function allProcesses(): ProcInfo[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    const info = procInfo(Number(name));
    return info ? [info] : [];
  });
}

/** Whether the process that had `startTime` still runs as `pid`. */
export function stillRunning(pid: number, startTime: number | null): boolean {
  const info = procInfo(pid);
  if (info !== null) return !info.zombie && (startTime === null || info.startTime === startTime);
  if (hasProc()) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
