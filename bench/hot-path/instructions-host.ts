// The process that bench/hot-path/instructions.ts runs under callgrind: every server whose
// instructions are counted, and nothing else (the load comes from the parent, outside valgrind).
// It serves a bare node:http hello, the real server over the store the parent prepared, and the
// floor (node:http replaying the real server's token-leaderboard bytes, captured here), then
// prints their addresses as one line of JSON and runs until its stdin closes.
import { get } from "node:http";

import { resolveConfig, startServer } from "@gauntlet/server";

import { bareNode, ENV, HELLO } from "./servers.ts";

export interface HostSpec {
  dataDir: string;
  databaseUrl: string | undefined;
  pgSchema: string | undefined;
  token: string;
  division: string;
}

export interface HostAddresses {
  hello: string;
  floor: string;
  server: string;
  leaderboard: string;
}

/** The response to `url` as headers and body to replay (less those node:http writes itself). */
function capture(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: [string, string][]; body: Buffer }> {
  const own = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]?.toLowerCase() ?? "";
          if (!own.has(name)) pairs.push([name, res.rawHeaders[i + 1] ?? ""]);
        }
        resolve({ headers: pairs, body: Buffer.concat(chunks) });
      });
    }).on("error", reject);
  });
}

const spec = JSON.parse(process.argv[2] ?? "{}") as HostSpec;
const env = {
  ...ENV,
  // Work that runs by the clock, not per request, is counted too: under valgrind's slow clock
  // it would fall on fewer requests per second than it does natively, so it is kept rare.
  GAUNTLET_EVENTS_POLL_MS: "3600000",
  // The standings' revalidation (a query once a second by the wall clock) likewise.
  GAUNTLET_STANDINGS_REVALIDATE_MS: "3600000",
};
const hello = await bareNode(HELLO);
const server = await startServer(
  resolveConfig(
    {
      port: 0,
      host: "127.0.0.1",
      dataDir: spec.dataDir,
      databaseUrl: spec.databaseUrl,
      databaseSchema: spec.pgSchema,
    },
    env,
  ),
  { env },
);
const leaderboard = `${server.url}/v2/divisions/${spec.division}/leaderboard`;
const floor = await bareNode(await capture(leaderboard, { authorization: `Bearer ${spec.token}` }));
const addresses: HostAddresses = {
  hello: hello.url,
  floor: floor.url,
  server: server.url,
  leaderboard,
};
process.stdout.write(`${JSON.stringify(addresses)}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  hello.close();
  floor.close();
  void server.close().then(() => process.exit(0));
});
