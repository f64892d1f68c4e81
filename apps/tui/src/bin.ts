#!/usr/bin/env node
// `gauntlet-watch`: the TUI on its own, with the flags of `gauntlet watch`.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { EXIT_USAGE, runWatch } from "./run-watch.ts";

const USAGE = `Usage: gauntlet-watch [options]

Watch a league play, live: standings, the current round and the feed.

Options:
  --server <url>      the server (default: GAUNTLET_SERVER, then the saved login)
  --token <token>     bearer token (default: GAUNTLET_TOKEN, then the saved login)
  --anonymous         send no token: public leagues only
  --league <league>   league id or name: skip the picker
  --division <div>    division id or name: skip the picker
  -h, --help          this help
  --version           the version

Keys: arrows or j/k move, Tab switches pane, Enter opens, Esc goes back, / filters,
? shows every key, q quits.
`;

function version(): string {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL("../package.json", import.meta.url), "utf8"),
  );
  return typeof pkg === "object" &&
    pkg !== null &&
    "version" in pkg &&
    typeof pkg.version === "string"
    ? pkg.version
    : "unknown";
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      server: { type: "string" },
      token: { type: "string" },
      anonymous: { type: "boolean" },
      league: { type: "string" },
      division: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  process.stderr.write(
    `gauntlet-watch: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`,
  );
  process.exit(EXIT_USAGE);
}

if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.version) {
  process.stdout.write(`${version()}\n`);
  process.exit(0);
}
if (values.anonymous && values.token !== undefined) {
  process.stderr.write("gauntlet-watch: give --token or --anonymous, not both\n");
  process.exit(EXIT_USAGE);
}

const code = await runWatch({
  ...(values.server !== undefined ? { server: values.server } : {}),
  ...(values.anonymous
    ? { token: null }
    : values.token !== undefined
      ? { token: values.token }
      : {}),
  ...(values.league !== undefined ? { league: values.league } : {}),
  ...(values.division !== undefined ? { division: values.division } : {}),
});
// Idle keep-alive sockets would hold the process open for a few seconds more.
process.exit(code);
