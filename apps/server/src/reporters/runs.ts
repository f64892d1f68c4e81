// Reporter runs: one run of a reporter over one subject (an episode, a round, a division or
// free text). The subject must be one the reporter's owner can see.
import type { Kysely } from "kysely";

import { newId, type OpenReporterRunRequest, type ReporterRun } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { getEpisodeRow } from "../episodes/episode-reads.ts";
import { getDivision } from "../leagues/divisions.ts";
import { getRound } from "../leagues/rounds-read.ts";
import { nowIso } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, ReporterRunsTable } from "../store/schema.ts";
import { ownedReporter } from "./reporters.ts";

function toRun(row: ReporterRunsTable, userId: string): ReporterRun {
  return {
    id: row.id,
    reporter_id: row.reporter_id,
    user_id: userId,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    subject_text: row.subject_text,
    created_at: row.created_at,
  };
}

/** Throws 404 unless the subject exists and the caller may see it. */
async function checkSubject(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: OpenReporterRunRequest,
): Promise<void> {
  const id = input.subject_id;
  if (input.subject_type === "text" || id === undefined) return;
  if (input.subject_type === "episode") await getEpisodeRow(db, identity, id);
  else if (input.subject_type === "round") await getRound(db, identity, id);
  else await getDivision(db, identity, id);
}

export async function openReporterRun(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  reporterId: string,
  input: OpenReporterRunRequest,
): Promise<ReporterRun> {
  const reporter = await ownedReporter(db, identity, reporterId);
  await checkSubject(db, identity, input);
  const row: ReporterRunsTable = {
    id: newId("reporterRun"),
    reporter_id: reporter.id,
    subject_type: input.subject_type,
    subject_id: input.subject_type === "text" ? null : (input.subject_id ?? null),
    subject_text: input.subject_text ?? null,
    created_at: nowIso(),
  };
  await db.insertInto("reporter_runs").values(row).execute();
  return toRun(row, reporter.user_id);
}

/** The run, or 404. */
export async function getRunRow(db: Kysely<Database>, runId: string): Promise<ReporterRunsTable> {
  const row = await db
    .selectFrom("reporter_runs")
    .selectAll()
    .where("id", "=", runId)
    .executeTakeFirst();
  if (!row) throw notFound("reporter run", runId);
  return row;
}
