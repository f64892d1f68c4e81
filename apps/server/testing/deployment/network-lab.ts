// Hosts for a deployment test: network namespaces, each joined by a veth pair to a bridge in the
// root namespace. The root namespace is the "services" machine (database, Redis, bucket, load
// balancer) at the bridge's address; each namespace is a machine of its own with one address on
// the bridge. Needs root. Everything made is removed by `destroy()`, which also runs when the
// process exits, so a failed or interrupted test leaves no namespace behind.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";

export interface LabHost {
  /** The namespace's name (`ip netns exec NAME …`). */
  netns: string;
  /** Its address on the bridge. */
  address: string;
  /** SIGKILLs every process in the namespace, as a machine that loses power; returns how many. */
  killAll(): number;
}

export interface NetworkLab {
  /** The root namespace's address on the bridge: where the hosts reach the services. */
  hostAddress: string;
  addHost(name: string): LabHost;
  destroy(): void;
}

function ip(...args: string[]): string {
  return execFileSync("ip", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Why a lab cannot be made here (not root, no `ip netns`), or null when it can. */
export function labUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "needs root to make network namespaces";
  const probe = `gxprobe${randomBytes(3).toString("hex")}`;
  try {
    ip("netns", "add", probe);
    ip("netns", "del", probe);
    return null;
  } catch (error) {
    return `ip netns failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
}

function pidsIn(netns: string): number[] {
  try {
    return ip("netns", "pids", netns)
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((pid) => Number.isInteger(pid) && pid > 0);
  } catch {
    return [];
  }
}

function killAllIn(netns: string): number {
  const pids = pidsIn(netns);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone between the listing and the kill.
    }
  }
  return pids.length;
}

export function createNetworkLab(): NetworkLab {
  const tag = randomBytes(2).toString("hex");
  const bridge = `gx${tag}br`;
  // A /24 unlikely to be routed here already; the tag makes two labs' subnets differ.
  const subnet = `10.${200 + (parseInt(tag.slice(0, 2), 16) % 50)}.${parseInt(tag.slice(2), 16)}`;
  const hostAddress = `${subnet}.1`;
  const namespaces: string[] = [];
  const links: string[] = [];
  let destroyed = false;

  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    for (const netns of namespaces) {
      killAllIn(netns);
      try {
        // Deleting the namespace deletes its end of the veth pair, and so the pair.
        ip("netns", "del", netns);
      } catch {
        // Gone already.
      }
    }
    // A namespace still held (a socket not yet closed) outlives its deletion, and its veth pair
    // with it: delete the pairs from this side too.
    for (const link of [...links, bridge]) {
      try {
        ip("link", "del", link);
      } catch {
        // Gone with its namespace.
      }
    }
    process.off("exit", destroy);
  };
  process.on("exit", destroy);

  ip("link", "add", bridge, "type", "bridge");
  ip("addr", "add", `${hostAddress}/24`, "dev", bridge);
  ip("link", "set", bridge, "up");

  return {
    hostAddress,
    destroy,
    addHost(name) {
      const index = namespaces.length + 1;
      const netns = `gx${tag}-${name}`;
      const outside = `gx${tag}h${index}`;
      const inside = `gx${tag}n${index}`;
      const address = `${subnet}.${10 + index}`;
      ip("netns", "add", netns);
      namespaces.push(netns);
      ip("link", "add", outside, "type", "veth", "peer", "name", inside);
      links.push(outside);
      ip("link", "set", outside, "master", bridge);
      ip("link", "set", outside, "up");
      ip("link", "set", inside, "netns", netns);
      ip("-n", netns, "addr", "add", `${address}/24`, "dev", inside);
      ip("-n", netns, "link", "set", inside, "up");
      ip("-n", netns, "link", "set", "lo", "up");
      return { netns, address, killAll: () => killAllIn(netns) };
    },
  };
}
