// The ladder settings of a league row. Settings are a free-form document that commissioners
// replace whole; a malformed ladder section stops its rounds (with the reason) rather than
// failing the scheduler.
import { ZodError } from "zod";

import { parseLadderSettings, type LadderSettings } from "@gauntlet/core";

import { parseJson } from "../shared/clock.ts";
import type { LeaguesTable } from "../store/schema.ts";

export type LadderOf = { ok: true; settings: LadderSettings } | { ok: false; message: string };

export function ladderOf(league: Pick<LeaguesTable, "settings">): LadderOf {
  try {
    return { ok: true, settings: parseLadderSettings(parseJson(league.settings)) };
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    const issue = error.issues[0];
    return {
      ok: false,
      message: `settings.${issue ? `${issue.path.join(".")}: ${issue.message}` : "ladder is invalid"}`,
    };
  }
}

/** For standings of a league whose ladder section is malformed: the defaults. */
export function ladderOrDefault(league: Pick<LeaguesTable, "settings">): LadderSettings {
  const ladder = ladderOf(league);
  return ladder.ok ? ladder.settings : parseLadderSettings({});
}
