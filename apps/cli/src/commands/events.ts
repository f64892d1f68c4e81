// gauntlet events --league L [--limit N] [--follow]: the league's feed, then live events.
import type { Command } from "commander";

import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { note, printJson, printTable, shortTime } from "../output.ts";
import { dim } from "../terminal.ts";
import type { CommandGroup } from "./group.ts";

export const events: CommandGroup = {
  register(program) {
    program
      .command("events")
      .description("A league's competition feed; --follow keeps printing live events")
      .requiredOption("--league <league>", "league id (league_…)")
      .option("--limit <n>", "how many recent events", "20")
      .option("--follow", "stay connected and print live events as they happen (Ctrl-C to stop)")
      .addHelpText(
        "after",
        "\nWith --json and --follow, live events are printed one JSON object a line after the feed.",
      )
      .action(async (opts: { league: string; limit: string; follow?: boolean }, cmd: Command) => {
        const league_id = await checkId("league", opts.league, "--league");
        const limit = parsePositiveInt(opts.limit, "--limit");
        const client = await clientOf(cmd);
        const feed = await client.competitionEvents.list({ league_id, limit });
        const json = wantsJson(cmd);
        if (json) printJson(feed);
        else
          printTable(
            ["time", "event", "headline"],
            feed.map((e) => [shortTime(e.created_at), e.event_type, e.headline]),
            "no events yet",
          );
        if (!opts.follow) return;
        const info = await client.events.info();
        if (!json)
          note(dim(`following live events of ${league_id} (Ctrl-C to stop)`, process.stderr));
        await new Promise<void>((resolve, reject) => {
          const sub = client.events.subscribe([`league:${league_id}`], {
            sinceSeq: info.last_seq,
            onEvent: (e) => {
              if (json) process.stdout.write(`${JSON.stringify(e)}\n`);
              else
                process.stdout.write(
                  `${shortTime(new Date().toISOString())}  ${e.type}  ${e.topic}\n`,
                );
            },
            onError: (error) => {
              // A refused subscription ends the command; a notice or a dropped connection does not (the SDK reconnects).
              const code = error.closeCode ?? 0;
              if (code === 1008 || (code >= 4400 && code < 4500)) {
                sub.close();
                reject(error);
              } else note(`live events: ${error.message}`);
            },
          });
          void sub.closed.then(() => resolve());
        });
      });
  },
};
