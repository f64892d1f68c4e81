// The league `gauntlet league use` remembers, per server (ids are the server's), in
// `cli.json` beside the saved tokens. Commands that need a league and are given none use it.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { CliError, EXIT } from "../exit-codes.ts";

export interface CurrentLeague {
  id: string;
  name: string;
}

interface CliConfig {
  version: 1;
  current_league: Record<string, CurrentLeague>;
}

type Env = Readonly<Record<string, string | undefined>>;

async function pathOf(env: Env): Promise<string> {
  const { configDir } = await import("@gauntlet/core");
  return join(configDir({ env }), "cli.json");
}

function isLeague(value: unknown): value is CurrentLeague {
  return (
    typeof value === "object" &&
    value !== null &&
    "id" in value &&
    typeof value.id === "string" &&
    "name" in value &&
    typeof value.name === "string"
  );
}

async function load(env: Env): Promise<CliConfig> {
  const path = await pathOf(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { version: 1, current_league: {} };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    const leagues =
      typeof parsed === "object" && parsed !== null && "current_league" in parsed
        ? parsed.current_league
        : {};
    const current: Record<string, CurrentLeague> = {};
    for (const [server, league] of Object.entries(leagues ?? {}))
      if (isLeague(league)) current[server] = { id: league.id, name: league.name };
    return { version: 1, current_league: current };
  } catch {
    throw new CliError(`${path} is not valid JSON: fix or delete it`, EXIT.usage);
  }
}

export async function currentLeague(
  server: string,
  env: Env = process.env,
): Promise<CurrentLeague | null> {
  return (await load(env)).current_league[server] ?? null;
}

/** Remembers `league` for `server`, or forgets it (null). */
export async function setCurrentLeague(
  server: string,
  league: CurrentLeague | null,
  env: Env = process.env,
): Promise<void> {
  const config = await load(env);
  if (league) config.current_league[server] = league;
  else delete config.current_league[server];
  const path = await pathOf(env);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
