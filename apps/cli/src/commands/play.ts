// gauntlet play <coworld>: start a hosted play session and print the address to play it at.
import type { Command } from "commander";

import { checkId, clientOf, parseJsonObject, wantsJson } from "../context.ts";
import { printJson } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export const play: CommandGroup = {
  register(program) {
    program
      .command("play")
      .description("Play a coworld in the browser against policies: prints the address to open")
      .argument("<coworld>", "coworld version id (cow_…)")
      .requiredOption(
        "--opponent <policy>",
        "a policy version id, name or name:vN; once per opponent seat",
        (v: string, all: string[] = []) => [...all, v],
      )
      .option("--variant <id>", "the coworld's variant")
      .option(
        "--config <json>",
        "game config overrides, a JSON object (e.g. a longer turn timeout)",
      )
      .action(
        async (
          id: string,
          opts: { opponent: string[]; variant?: string; config?: string },
          cmd: Command,
        ) => {
          const coworld_id = await checkId("coworld", id, "COWORLD");
          const overrides =
            opts.config === undefined ? undefined : parseJsonObject(opts.config, "--config");
          const client = await clientOf(cmd);
          const session = await client.playSessions.create({
            body: {
              coworld_id,
              opponents: opts.opponent,
              ...(opts.variant ? { variant_id: opts.variant } : {}),
              ...(overrides ? { game_config_overrides: overrides } : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(session);
          process.stdout.write(`${session.join_url ?? ""}\n`);
          process.stderr.write(
            `Open the address above in a browser to play (session ${session.id}, episode ${session.episode_request_id}).\n`,
          );
        },
      );
  },
};
