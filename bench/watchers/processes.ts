// `bench watchers`' processes: the client processes (clients.ts) every row shares, whatever
// server it measures, each server's memory and CPU read from /proc, and the cores they are
// pinned to (BENCH_PIN).
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

import type { ClientsTask, FromClients, ToClients } from "./clients.ts";

const CLK_TCK = 100;

export function rssKb(pid: number): number {
  const found = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(found?.[1] ?? Number.NaN);
}

/** User + system CPU seconds of a process so far (system alone with `systemOnly`). */
export function cpuSeconds(pid: number, systemOnly = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((systemOnly ? 0 : Number(fields[11])) + Number(fields[12])) / CLK_TCK;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every thread of a process (threads it starts later inherit it) on `cores` ("0", "1", "0-1"). */
export function pin(pid: number, cores: string): void {
  execFileSync("taskset", ["-a", "-cp", cores, String(pid)], { stdio: "ignore" });
}

export function waitFor<T extends FromClients["type"]>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<FromClients, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`a client process sent no ${type} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listen = (message: FromClients) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off("message", listen);
      resolve(message as Extract<FromClients, { type: T }>);
    };
    child.on("message", listen);
    child.once("exit", (code) => reject(new Error(`a client process exited (${code})`)));
  });
}

/** `processes` client processes, `watchers` / `processes` watchers each alternating over `urls`,
 * all subscribed to `topic` once this settles (in the compact form with `compact`). `core`: the
 * core they are pinned to, if any. */
export async function startClients(options: {
  urls: string[];
  topic: string;
  watchers: number;
  processes: number;
  compact: boolean;
  client: ClientsTask["client"];
  core?: string;
}): Promise<ChildProcess[]> {
  const { urls, topic, watchers, processes, compact, client } = options;
  const children: ChildProcess[] = [];
  const per = Math.ceil(watchers / processes);
  for (let p = 0; p < processes; p += 1) {
    const count = Math.min(per, watchers - p * per);
    if (count <= 0) break;
    const child = fork(new URL("./clients.ts", import.meta.url), [], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    children.push(child);
    if (options.core !== undefined && child.pid !== undefined) pin(child.pid, options.core);
    const task: ClientsTask = { urls, count, offset: p * per, topic, opening: 64, compact, client };
    child.send(task);
  }
  await Promise.all(children.map((c) => waitFor(c, "subscribed", 300_000)));
  return children;
}

/** Each process's receipts, and what it missed of `expected` (the seqs made). */
export function finishClients(
  children: ChildProcess[],
  expected: number[],
): Promise<Extract<FromClients, { type: "result" }>[]> {
  return Promise.all(
    children.map((c) => {
      const answer = waitFor(c, "result", 60_000);
      c.send({ type: "finish", expected } satisfies ToClients);
      return answer;
    }),
  );
}

export async function stopClients(children: ChildProcess[]): Promise<void> {
  for (const c of children) if (c.connected) c.send({ type: "stop" } satisfies ToClients);
  await Promise.all(
    children.map((c) =>
      c.exitCode === null
        ? new Promise((resolve) => c.once("exit", resolve))
        : Promise.resolve(c.exitCode),
    ),
  );
}

/** The machine's CPU time by core (seconds): busy (neither idle nor waiting for I/O), in
 * softirq (on loopback the receivers' TCP work lands here when the kernel defers it to
 * ksoftirqd, not charged to any process of the bench) and stolen by the host. */
export interface CoreTimes {
  busy: number[];
  softirq: number;
  steal: number;
}

export function coreTimes(): CoreTimes {
  const busy: number[] = [];
  let softirq = 0;
  let steal = 0;
  for (const line of readFileSync("/proc/stat", "utf8").split("\n")) {
    if (!/^cpu\d+ /.test(line)) continue;
    const [user = 0, nice = 0, system = 0, , , irq = 0, soft = 0, stolen = 0] = line
      .split(/\s+/)
      .slice(1)
      .map(Number);
    busy.push((user + nice + system + irq + soft + stolen) / CLK_TCK);
    softirq += soft / CLK_TCK;
    steal += stolen / CLK_TCK;
  }
  return { busy, softirq, steal };
}

/** What the machine did between two readings, as shares of a core over `seconds`; `ours`: the
 * bench's processes' CPU seconds (server, clients, this process) — the rest is others' work. */
export function machineShares(
  from: CoreTimes,
  to: CoreTimes,
  seconds: number,
  ours: number,
): { busy: number[]; softirq: number; steal: number; others: number } {
  const busy = to.busy.map((b, i) => (b - (from.busy[i] ?? 0)) / seconds);
  const softirq = (to.softirq - from.softirq) / seconds;
  const steal = (to.steal - from.steal) / seconds;
  const total = busy.reduce((a, b) => a + b, 0);
  return { busy, softirq, steal, others: Math.max(0, total - softirq - steal - ours / seconds) };
}
