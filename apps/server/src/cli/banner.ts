// What `gauntlet-server start` prints once it runs: the addresses, the first admin, the demo
// league, and commands that work as printed (see invocation.ts).
import type { Coworld } from "@gauntlet/core";

import type { DemoLeague } from "../embedded/demo.ts";
import type { FirstAdmin } from "../identity/first-admin.ts";

export interface BannerInput {
  apiPrefix: string;
  /** The API at the alt host's root. */
  url: string;
  /** The API on the data host, under the prefix. */
  dataUrl: string;
  storage: { engine: string; location: string };
  firstAdmin: FirstAdmin | null;
  example: Coworld | null;
  demo: DemoLeague | null;
  runner: boolean;
  /** How to run `gauntlet-server` quietly (for `TOKEN=$(…)`) and `gauntlet-runner` from here. */
  commands: { server: string; runner: string; cli?: string };
  /** The storage flags `start` was given, which the admin commands need too (e.g. ` --data-dir x`). */
  storageArgs: string;
}

export function bannerLines(b: BannerInput): string[] {
  const lines = [
    "",
    "Gauntlet is running.",
    `  API (data host, prefix ${b.apiPrefix}): ${b.dataUrl}`,
    `  API (alt host, at the root):  ${b.url}`,
    `  Reference: ${b.url}/docs   OpenAPI: ${b.url}/openapi.json`,
    `  Storage: ${b.storage.engine} (${b.storage.location})`,
  ];
  if (b.firstAdmin) {
    lines.push(
      "",
      "First start: an admin account was created.",
      `  email:    ${b.firstAdmin.email}`,
      `  password: ${b.firstAdmin.password}`,
      `  (also saved, readable only by you, in ${b.firstAdmin.credentialsFile})`,
      `  Sign in from a browser at ${b.url}/cli-login?callback=…, or make a token now:`,
      `  ${b.commands.server} tokens create --email ${b.firstAdmin.email}${b.storageArgs}`,
    );
  }
  if (b.example)
    lines.push(
      "",
      `Example coworld registered: ${b.example.name} ${b.example.version} (${b.example.id}).`,
      `  Certify it: POST ${b.url}/v2/coworlds/${b.example.id}/certify`,
    );
  if (b.demo) {
    lines.push(
      "",
      `Demo league: ${b.demo.league.name} (${b.demo.league.id}), ${b.demo.players} baseline players playing by themselves (--no-demo leaves it out).`,
    );
    for (const d of b.demo.divisions)
      lines.push(`  ${d.name} standings: ${b.url}/v2/divisions/${d.id}/leaderboard`);
    lines.push(
      `  Live: ws://${b.url.replace(/^https?:\/\//, "")}/v2/events, topic league:${b.demo.league.id}`,
    );
    if (b.commands.cli)
      lines.push(`  Watch it in the terminal: ${b.commands.cli} watch --server ${b.url}`);
    if (b.demo.hill)
      lines.push(
        `And ${b.demo.hill.name} (${b.demo.hill.id}): run by the coworld's own commissioner, sandboxed on the runner.`,
      );
  }
  lines.push(
    "",
    b.runner
      ? "Runner: embedded (a child process of this command; --no-runner leaves it out)."
      : `Runner: none (--no-runner). Start one: ${b.commands.runner} --server ${b.url} with GAUNTLET_TOKEN set to a machine token.`,
    "Quiet by default: warnings and errors only (--verbose or LOG_LEVEL=info for a line per episode). Ctrl-C stops.",
  );
  return lines;
}
