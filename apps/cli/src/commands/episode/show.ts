// gauntlet episode show EPISODE
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { shortTime, writeFields, writeJson, writeTable } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";
import { cpuOfSeat, isMine, mineOf, outcomeOf, runnerLoadOf, seatRows } from "./seats-view.ts";

export interface ShowOptions {
  episodeId: string;
  json: boolean;
}

export async function runShow(options: ShowOptions, { io, client }: Deps): Promise<void> {
  const e = await client.episodeRequests.get({ episode_request_id: options.episodeId });
  if (options.json) return writeJson(io, e);
  const mine = await mineOf(client);
  writeFields(io, [
    ["id", e.id],
    ["status", e.status],
    ["result", outcomeOf(e)],
    ["coworld", e.coworld_id],
    ["round", e.round_id],
    ["created", shortTime(e.created_at)],
    ["replay", e.replay_url],
    ...(e.cpu === null
      ? []
      : ([
          ["game cpu", e.cpu.game === null ? e.cpu.unmeasured : `${e.cpu.game.toFixed(2)} s`],
          [
            "cpu cap",
            e.cpu.cpus_per_runnable === null ? "none" : `${e.cpu.cpus_per_runnable} per seat`,
          ],
          ["runner", runnerLoadOf(e.cpu.runner)],
        ] as [string, string | null][])),
  ]);
  io.out.write("\n");
  // A CPU column once the runner has said what each seat used.
  const rows = seatRows(e, mine);
  if (e.cpu === null) writeTable(io, ["seat", "player", "score", "result"], rows, "no seats");
  else
    writeTable(
      io,
      ["seat", "player", "score", "result", "cpu"],
      rows.map((row, index) => [...row, cpuOfSeat(e, index)]),
      "no seats",
    );
  if (e.participants.some((seat) => isMine(seat, mine))) io.out.write("* your seat\n");
}

export function showCommand(
  parent: Command,
  factory: Factory,
  run: (options: ShowOptions, deps: Deps) => Promise<void> = runShow,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: "show",
    description: "Show one episode: who played, whose seats are yours, who won or why it failed",
    argument: ["<episode>", "episode id (ereq_…)"],
    options: async (id) => ({ episodeId: await checkId("episodeRequest", id, "EPISODE") }),
  });
}
