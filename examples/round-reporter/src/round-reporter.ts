// Follows one division's live events through the SDK; for each settled round it opens a
// reporter run over that round and posts an HTML summary as the run's output, with the
// reporter's key. Runs act under the reporter owner's budgets.
import { CompetitionEvent, type ReporterRunOutput } from "@gauntlet/core";
import type { Gauntlet, LiveEvent } from "@gauntlet/sdk";

import { roundSummaryHtml } from "./summary-html.ts";

export interface RoundReporterOptions {
  /** A client signed in as the reporter's owner (live events, runs, reads). */
  client: Gauntlet;
  reporterId: string;
  /** The reporter's key, as `register` or `rotate-key` printed it. */
  reporterKey: string;
  divisionId: string;
  /** Resume after this live-event `seq` (e.g. the last one handled before a restart). */
  sinceSeq?: number;
  /** Told of each published summary. */
  onPublished?: (output: ReporterRunOutput) => void;
  /** Told of a round it could not write up; the reporter goes on. */
  onError?: (error: unknown) => void;
}

export interface RoundReporter {
  close(): void;
}

async function publish(
  options: RoundReporterOptions,
  event: CompetitionEvent,
): Promise<ReporterRunOutput | null> {
  const roundId = event.round_id;
  if (event.event_type !== "round_completed" || roundId === null) return null;
  const { client } = options;
  const [round, standings] = await Promise.all([
    client.rounds.get({ round_id: roundId }),
    client.divisions.leaderboard({ division_id: options.divisionId }),
  ]);
  const html = roundSummaryHtml({
    divisionName: event.division?.name ?? options.divisionId,
    headline: event.headline,
    summary: event.summary,
    round,
    standings,
  });
  const run = await client.reporterRuns.open({
    reporter_id: options.reporterId,
    body: { subject_type: "round", subject_id: roundId },
  });
  return client.reporterOutputs.post(
    {
      reporter_run_id: run.id,
      name: `round-${round.round_number}.html`,
      type: "html",
      body: new TextEncoder().encode(html),
    },
    { headers: { "X-Reporter-Key": options.reporterKey } },
  );
}

export function startRoundReporter(options: RoundReporterOptions): RoundReporter {
  // One round at a time, in the order the events came.
  let queue: Promise<void> = Promise.resolve();
  const onEvent = (message: LiveEvent) => {
    const parsed = CompetitionEvent.safeParse(message.data);
    if (!parsed.success) return;
    queue = queue
      .then(() => publish(options, parsed.data))
      .then((output) => {
        if (output) options.onPublished?.(output);
      })
      .catch((error: unknown) => options.onError?.(error));
  };
  const subscription = options.client.events.subscribe([`division:${options.divisionId}`], {
    onEvent,
    ...(options.sinceSeq !== undefined ? { sinceSeq: options.sinceSeq } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { close: () => subscription.close() };
}
