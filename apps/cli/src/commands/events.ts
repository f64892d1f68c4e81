// gauntlet events --league L [--limit N] [--follow]: the league's feed, then live events,
// options -> run(options, {io, client}).
import type { Command } from "commander";

import type { LiveEvent } from "@gauntlet/core";

import { parsePositiveInt, wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { leagueOrCurrent } from "../names/resolve.ts";
import { shortTime, visible, writeJson, writeNote } from "../output.ts";
import { bold, dim } from "../terminal.ts";
import type { CommandGroup } from "./group.ts";

export interface EventsOptions {
  leagueId: string;
  limit: number;
  follow: boolean;
  json: boolean;
  /** Ends --follow (tests; the command line stops on Ctrl-C). */
  signal?: AbortSignal;
}

/** "2026-01-02 03:04:05": every time of the feed is this wide. */
const TIME_WIDTH = 19;

/**
 * One line of the feed, history and live alike: the columns padded to fixed widths (the event
 * column to `eventWidth`, the longest event type), so live lines stay under the table's header.
 */
function feedLine(time: string, type: string, headline: string, eventWidth: number): string {
  return `${time.padEnd(TIME_WIDTH)}  ${type.padEnd(eventWidth)}  ${headline}`.trimEnd();
}

/** A live event as its line in the feed: the event's own time, its type and its headline. */
export function liveLine(event: LiveEvent, eventWidth = 0): string {
  const data =
    event.data !== null && typeof event.data === "object"
      ? (event.data as { headline?: unknown; created_at?: unknown })
      : {};
  const at = typeof data.created_at === "string" ? data.created_at : event.at;
  const headline = typeof data.headline === "string" ? data.headline : event.topic;
  return feedLine(shortTime(at), event.type, headline, eventWidth);
}

export async function runEvents(options: EventsOptions, { io, client }: Deps): Promise<void> {
  const { leagueId: league_id, json } = options;
  // The stream's position before the feed is read: an event between the two is printed (at
  // worst twice), never lost.
  const info = options.follow ? await client.events.info() : null;
  const feed = await client.competitionEvents.list({ league_id, limit: options.limit });
  const { CompetitionEventType } = await import("@gauntlet/core");
  const eventWidth = Math.max("EVENT".length, ...CompetitionEventType.options.map((t) => t.length));
  if (json) writeJson(io, feed);
  else if (feed.length === 0) io.err.write("no events yet\n");
  else {
    // Oldest first (the API answers newest first), as live events then follow.
    io.out.write(`${bold(feedLine("TIME", "EVENT", "HEADLINE", eventWidth), io.out)}\n`);
    for (const e of [...feed].reverse())
      io.out.write(
        `${feedLine(shortTime(e.created_at), e.event_type, visible(e.headline), eventWidth)}\n`,
      );
  }
  if (!info) return;
  if (!json) writeNote(io, dim(`following live events of ${league_id} (Ctrl-C to stop)`, io.err));
  await new Promise<void>((resolve, reject) => {
    const sub = client.events.subscribe([`league:${league_id}`], {
      sinceSeq: info.last_seq,
      onEvent: (e) => {
        io.out.write(json ? `${JSON.stringify(e)}\n` : `${liveLine(e, eventWidth)}\n`);
      },
      onError: (error) => {
        // A refused subscription ends the command; a notice or a dropped connection does not (the SDK reconnects).
        const code = error.closeCode ?? 0;
        if (code === 1008 || (code >= 4400 && code < 4500)) {
          sub.close();
          reject(error);
        } else writeNote(io, `live events: ${error.message}`);
      },
    });
    options.signal?.addEventListener("abort", () => sub.close(), { once: true });
    void sub.closed.then(() => resolve());
  });
}

interface Flags {
  league: string;
  limit: string;
  follow?: boolean;
}

export function eventsCommand(
  program: Command,
  factory: Factory,
  run: (options: EventsOptions, deps: Deps) => Promise<void> = runEvents,
): Command {
  return program
    .command("events")
    .description(
      "A league's competition feed, oldest first; --follow keeps printing live events below it",
    )
    .option(
      "--league <league>",
      "the league's name or id (default: the current league, `league use`)",
    )
    .option("--limit <n>", "how many recent events", "20")
    .option("--follow", "stay connected and print live events as they happen (Ctrl-C to stop)")
    .addHelpText(
      "after",
      "\nWith --json and --follow, live events are printed one JSON object a line after\nthe feed.",
    )
    .action(async (opts: Flags, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        leagueId: await leagueOrCurrent(deps, opts.league, "--league"),
        limit: parsePositiveInt(opts.limit, "--limit"),
        follow: opts.follow === true,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}

export const events: CommandGroup = {
  register(program, _state, factory) {
    eventsCommand(program, factory);
  },
};
