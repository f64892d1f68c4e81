// gauntlet play COWORLD --opponent P…: start a hosted play session and print the address to play
// it at. Options -> run(options, {io, client}).
import type { Command } from "commander";

import { parseJsonObject, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { resolveOpponent } from "../../names/policy-version.ts";
import { coworldIdOf } from "../../names/resolve.ts";
import { writeJson, writeNote } from "../../output.ts";
import type { CommandGroup } from "../group.ts";

export interface PlayOptions {
  /** A coworld version id, or a coworld's name (its canonical version). */
  coworld: string;
  /**
   * One per opponent seat: a policy version id, NAME or NAME:vN of yours, else of a policy open
   * to scrimmage (the demo league's baselines by their coworld's names: greedy).
   */
  opponents: string[];
  variant: string | null;
  /** Game config overrides. */
  config: Record<string, unknown> | null;
  json: boolean;
}

export async function runPlay(options: PlayOptions, { io, client }: Deps): Promise<void> {
  const coworldId = await coworldIdOf(client, options.coworld, "COWORLD");
  const opponents: string[] = [];
  for (const ref of options.opponents)
    opponents.push(await resolveOpponent(client, ref, "--opponent"));
  const session = await client.playSessions.create({
    body: {
      coworld_id: coworldId,
      opponents,
      ...(options.variant ? { variant_id: options.variant } : {}),
      ...(options.config ? { game_config_overrides: options.config } : {}),
    },
  });
  if (options.json) return writeJson(io, session);
  // The address alone on stdout, so `open "$(gauntlet play …)"` works.
  io.out.write(`${session.join_url ?? ""}\n`);
  writeNote(
    io,
    `Open the address above in a browser to play (session ${session.id}, episode ${session.episode_request_id}).`,
  );
}

export function playCommand(
  parent: Command,
  factory: Factory,
  run: (options: PlayOptions, deps: Deps) => Promise<void> = runPlay,
): Command {
  return parent
    .command("play")
    .description("Play a coworld in the browser against policies: prints the address to open")
    .argument("<coworld>", "coworld name (its canonical version) or version id (cow_…)")
    .requiredOption(
      "--opponent <policy>",
      "a policy version id, name or name:vN (yours, else open to scrimmage, e.g. the demo's greedy); once per opponent seat",
      (v: string, all: string[] = []) => [...all, v],
    )
    .option("--variant <id>", "the coworld's variant")
    .option("--config <json>", "game config overrides, a JSON object (e.g. a longer turn timeout)")
    .action(
      async (
        coworld: string,
        opts: { opponent: string[]; variant?: string; config?: string },
        cmd: Command,
      ) => {
        const options = {
          coworld,
          opponents: opts.opponent,
          variant: opts.variant ?? null,
          config: opts.config === undefined ? null : parseJsonObject(opts.config, "--config"),
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}

export const play: CommandGroup = {
  register(program, _state, factory) {
    playCommand(program, factory);
  },
};
