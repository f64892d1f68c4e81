// The budget key of an anonymous caller: its address as fastify's `request.ip` gives it — the
// socket's peer, or the client that X-Forwarded-For names when the peer is one of
// GAUNTLET_TRUSTED_PROXIES (app.ts sets `trustProxy` from that list alone). An IPv6 client
// holds a /64 of its own and could spread a flood over it, so it is counted per /64.
import { isIPv6 } from "node:net";

import type { FastifyRequest } from "fastify";

/** `a.b.c.d`, or the first four groups of an IPv6 address with `::/64` (IPv4-mapped read as IPv4). */
export function clientBudgetKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIpv6(address).slice(0, 4).join(":")}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (a zone id dropped). */
function expandIpv6(address: string): string[] {
  const [bare = ""] = address.toLowerCase().split("%");
  const [head = "", tail] = bare.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const before = groups(head);
  const after = groups(tail);
  const middle =
    tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill("0");
  return [...before, ...middle, ...after].map((g) => g.replace(/^0+(?=.)/, ""));
}

export function clientBudgetKeyOf(request: FastifyRequest): string {
  return clientBudgetKey(request.ip);
}
