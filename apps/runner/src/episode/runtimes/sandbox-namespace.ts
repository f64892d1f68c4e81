// What the runner reads of a sandbox from outside, in /proc: its namespace's TCP sockets (is the
// game listening yet?) and the first process bubblewrap made inside.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

import { unlessGone } from "@gauntlet/core";

/**
 * How many TCP sockets (v4 and v6) are hashed — listening or connected — in the network
 * namespace of `pid`; null when its counters cannot be read. A look costs a few counters; read
 * synchronously (a /proc file never blocks): asked every 5 ms while a game boots, a promise and a
 * thread-pool trip per read cost the runner more than the read itself.
 */
export function tcpInUse(pid: number): number | null {
  let total: number | null = null;
  for (const [file, key] of [
    ["sockstat", "TCP:"],
    ["sockstat6", "TCP6:"],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${file}`, "utf8");
    } catch {
      continue;
    }
    const line = text.split("\n").find((l) => l.startsWith(`${key} inuse `));
    if (line === undefined) continue;
    total = (total ?? 0) + (Number(line.split(" ")[2]) || 0);
  }
  return total;
}

/**
 * Whether a TCP socket listens on `port` (any address) in the network namespace of `pid`; null
 * when its tables are gone (the process has exited; then the runner cannot tell). Any other
 * failure to read them rejects.
 */
export async function listensIn(pid: number, port: number): Promise<boolean | null> {
  // The tables cost a walk of the host's whole TCP hash (~4 ms of CPU each, every namespace
  // alike): read them only once the namespace has a TCP socket at all, which the game's
  // listen() is the first to make.
  if (tcpInUse(pid) === 0) return false;
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let read = false;
  for (const table of ["tcp", "tcp6"]) {
    const text = await unlessGone(readFile(`/proc/${pid}/net/${table}`, "utf8"));
    if (text === null) continue;
    read = true;
    for (const line of text.split("\n")) {
      const [, local = "", , state] = line.trim().split(/\s+/);
      if (state === "0A" && local.endsWith(hex)) return true;
    }
  }
  return read ? false : null;
}

/**
 * A process inside the sandbox that `pid` (bubblewrap, outside) made: its first child; null
 * before it has one, undefined where the kernel does not list children (then nobody can tell).
 */
export async function insidePid(pid: number): Promise<number | null | undefined> {
  // ENOENT both where the process has gone and where the kernel keeps no list of children.
  const children = await unlessGone(readFile(`/proc/${pid}/task/${pid}/children`, "utf8"));
  if (children === null) return undefined;
  const first = Number(children.trim().split(/\s+/)[0]);
  return Number.isInteger(first) && first > 0 ? first : null;
}
