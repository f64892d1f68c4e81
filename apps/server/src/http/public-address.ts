// The absolute address the server hands out (join pages, socket and relay addresses, OpenAPI
// `servers`, upload addresses): configuration decides it, never a caller. GAUNTLET_PUBLIC_URL
// wins; else a request that reached us through a trusted proxy (GAUNTLET_TRUSTED_PROXIES) names
// the scheme and host it was sent to (X-Forwarded-Proto, X-Forwarded-Host); else the address
// the server listens on. A `Host` header alone never changes an address: a joiner of a hosted
// game could otherwise point the runner's relay (and every seat's token) at a host of its own.
import { BlockList, isIP } from "node:net";

import type { FastifyRequest } from "fastify";

import { hostnameOf } from "./base-path.ts";

/** Parses GAUNTLET_TRUSTED_PROXIES: addresses and CIDR ranges, IPv4 or IPv6. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", bits, ...rest] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || rest.length > 0)
      throw new Error(`GAUNTLET_TRUSTED_PROXIES: ${entry} is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128))
      throw new Error(`GAUNTLET_TRUSTED_PROXIES: ${entry} has an invalid prefix length`);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/** True when the peer address is one of the trusted proxies (IPv4-mapped IPv6 read as IPv4). */
export function isTrustedPeer(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return list.check(mapped[1], "ipv4");
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

function lastEntry(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  if (!value) return undefined;
  const parts = value.split(",");
  return parts[parts.length - 1]?.trim() || undefined;
}

const FORWARDED_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

export interface PublicAddressOptions {
  /** GAUNTLET_PUBLIC_URL, normalised (no trailing slash); undefined when not set. */
  publicUrl: string | undefined;
  trustedProxies: readonly string[];
  apiPrefix: string;
  dataHosts: readonly string[];
  /** The address the server listens on (`http://host:port`), known once it listens. */
  listening: () => string;
}

/** The API's base URL for answers to this request (no trailing slash). */
export function createPublicAddress(
  options: PublicAddressOptions,
): (request: FastifyRequest) => string {
  const trusted = options.trustedProxies.length ? trustedProxyList(options.trustedProxies) : null;
  const data = new Set(options.dataHosts.map((h) => h.toLowerCase()));
  const withPrefix = (origin: string, host: string) =>
    `${origin}${data.has(hostnameOf(host)) ? options.apiPrefix : ""}`;
  let listening: string | undefined;
  return (request) => {
    if (options.publicUrl) return options.publicUrl;
    if (trusted && isTrustedPeer(trusted, request.socket.remoteAddress)) {
      const proto = lastEntry(request.headers["x-forwarded-proto"])?.toLowerCase();
      const host = lastEntry(request.headers["x-forwarded-host"]);
      if (host && FORWARDED_HOST.test(host)) {
        const scheme = proto === "https" ? "https" : "http";
        return withPrefix(`${scheme}://${host.toLowerCase()}`, host);
      }
    }
    listening ??= options.listening();
    return withPrefix(listening, new URL(listening).host);
  };
}

/** Validates and normalises GAUNTLET_PUBLIC_URL: an http(s) address, no query or fragment. */
export function parsePublicUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (!URL.canParse(text)) throw new Error(`GAUNTLET_PUBLIC_URL is not an address: ${text}`);
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`GAUNTLET_PUBLIC_URL must be http(s), not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password)
    throw new Error("GAUNTLET_PUBLIC_URL takes no query, fragment or credentials");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * Makes a path a domain function answered absolute with the public address `base`; an address
 * that is absolute already (one an object store presigned) is kept.
 */
export function absoluteTo(base: string, pathOrUrl: string): string {
  return pathOrUrl.startsWith("/") ? `${base}${pathOrUrl}` : pathOrUrl;
}

/** As absoluteTo, for a WebSocket: `ws://` or `wss://` as the public address is http or https. */
export function webSocketTo(base: string, pathOrUrl: string): string {
  return absoluteTo(base.replace(/^http/, "ws"), pathOrUrl);
}
