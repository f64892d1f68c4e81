// gauntlet hosted create|list|get|join|end|replay: games hosted live, whose slots people (in the
// browser) and programs (over the coworld's player protocol) join, and replays opened in the
// coworld's replay viewer. The hosted service's `coworld hosted-game` commands, here.
import type { Command } from "commander";

import type { HostedGameSession } from "@gauntlet/core";

import { checkId, clientOf, parseJsonObject, parsePositiveInt, wantsJson } from "../context.ts";
import { printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

const sessionArg = (id: string) => checkId("playSession", id, "SESSION");

function show(cmd: Command, session: HostedGameSession): void {
  if (wantsJson(cmd)) return printJson(session);
  printFields([
    ["id", session.session_id],
    ["coworld", session.coworld_id],
    ["variant", session.variant_id],
    ["status", session.status],
    ["lobby", session.lobby_id],
    ["episode", session.episode_request_id],
    ["join", session.join_url],
    ["lobby page", session.lobby_url],
    ["created", shortTime(session.created_at)],
    ["ended", shortTime(session.ended_at)],
    ["error", session.error],
  ]);
  printTable(
    ["slot", "player", "user", "policy", "joined"],
    session.players.map((p) => [
      p.slot,
      p.label,
      p.user_id,
      p.player_name,
      p.joined_at ? shortTime(p.joined_at) : "open",
    ]),
  );
}

export const hosted: CommandGroup = {
  register(program) {
    const group = program
      .command("hosted")
      .description("Hosted games people and programs join live, and hosted replays");

    group
      .command("create")
      .description("Host a game of a coworld: prints the page to join it and the lobby page")
      .argument("<coworld>", "coworld version id (cow_…)")
      .option("--variant <id>", "the coworld's variant")
      .option("--players <n>", "how many slots (the coworld's smallest roster by default)")
      .option(
        "--config <json>",
        "game config overrides, a JSON object (e.g. a longer turn timeout for people)",
      )
      .option("--spectators", "show who joined on the lobby page")
      .action(
        async (
          id: string,
          opts: { variant?: string; players?: string; config?: string; spectators?: boolean },
          cmd: Command,
        ) => {
          const coworld_id = await checkId("coworld", id, "COWORLD");
          const players =
            opts.players === undefined ? undefined : parsePositiveInt(opts.players, "--players");
          const config =
            opts.config === undefined ? undefined : parseJsonObject(opts.config, "--config");
          const created = await (
            await clientOf(cmd)
          ).hostedGames.create({
            body: {
              coworld_id,
              allow_spectators: opts.spectators ?? false,
              ...(opts.variant ? { variant_id: opts.variant } : {}),
              ...(players !== undefined ? { player_count: players } : {}),
              ...(config ? { game_config: config } : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(created);
          printFields([
            ["session", created.session_id],
            ["slots", created.player_count],
            ["join", created.join_url],
            ["lobby", created.lobby_url],
          ]);
          process.stderr.write(
            `Open the join page in a browser, or join from a program: gauntlet hosted join ${created.session_id}\n`,
          );
        },
      );

    group
      .command("list")
      .description("The sessions you created or hold a slot in, newest first")
      .action(async (_opts: unknown, cmd: Command) => {
        const sessions = await (await clientOf(cmd)).hostedGames.list({});
        if (wantsJson(cmd)) return printJson(sessions);
        printTable(
          ["id", "status", "slots", "joined", "created"],
          sessions.map((s) => [
            s.session_id,
            s.status,
            s.player_count,
            s.players.filter((p) => p.joined_at !== null).length,
            shortTime(s.created_at),
          ]),
        );
      });

    group
      .command("get")
      .description("Show a session: its slots, who joined, its episode")
      .argument("<session>", "play session id (ps_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        show(
          cmd,
          await (await clientOf(cmd)).hostedGames.get({ session_id: await sessionArg(id) }),
        );
      });

    group
      .command("join")
      .description(
        "Take a slot (yours again if you hold one): prints its player address (WebSocket)",
      )
      .argument("<session>", "play session id (ps_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const joined = await (
          await clientOf(cmd)
        ).hostedGames.join({ session_id: await sessionArg(id) });
        if (wantsJson(cmd)) return printJson(joined);
        process.stdout.write(`${joined.player_url}\n`);
        const browser = joined.client_url ? `; in a browser: ${joined.client_url}` : "";
        process.stderr.write(
          `Slot ${joined.slot} (${joined.player.label}): connect a player program to the address above${browser}\n`,
        );
      });

    group
      .command("end")
      .description("End a session now (its episode is cancelled)")
      .argument("<session>", "play session id (ps_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        show(
          cmd,
          await (await clientOf(cmd)).hostedGames.terminate({ session_id: await sessionArg(id) }),
        );
      });

    group
      .command("replay")
      .description("Open a replay in the coworld's replay viewer: prints the viewer's address")
      .argument("<coworld>", "coworld version id (cow_…)")
      .argument(
        "<replay-uri>",
        "the episode's replay address (…/v2/episode-requests/{id}/artifacts/replay); the viewer gets a 15-minute capability for it",
      )
      .option("--episode <id>", "the episode the replay is of (when the address does not say)")
      .action(async (id: string, replayUri: string, opts: { episode?: string }, cmd: Command) => {
        const coworld_id = await checkId("coworld", id, "COWORLD");
        const opened = await (
          await clientOf(cmd)
        ).replays.createSession({
          body: {
            coworld_id,
            replay_uri: replayUri,
            ...(opts.episode ? { episode_id: opts.episode } : {}),
          },
        });
        if (wantsJson(cmd)) return printJson(opened);
        process.stdout.write(`${opened.viewer_url}\n`);
      });
  },
};
