// gauntlet lobby create|get|update|seat|claim|empty|leave|start|launch|end|cancel
import type { Command } from "commander";

import type { Lobby } from "@gauntlet/core";

import { checkId, checkUuid, clientOf, parseJsonObject, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

type SeatInput =
  | { kind: "human"; user_id: string }
  | { kind: "league_player"; player_id: string }
  | { kind: "human_open" | "random" | "closed" };

/** `human:user_…`, `human_open`, `league_player:ply_…`, `random` or `closed`. */
async function parseSeat(text: string): Promise<SeatInput> {
  const [kind, ref, ...rest] = text.split(":");
  if (rest.length === 0 && kind === "human" && ref)
    return { kind, user_id: await checkId("user", ref, "--seat human:USER") };
  if (rest.length === 0 && kind === "league_player" && ref)
    return { kind, player_id: await checkId("player", ref, "--seat league_player:PLAYER") };
  if (ref === undefined && (kind === "human_open" || kind === "random" || kind === "closed"))
    return { kind };
  throw new CliError(
    `--seat: expected human:USER_ID, human_open, league_player:PLAYER_ID, random or closed, got '${text}'`,
    EXIT.usage,
  );
}

function show(cmd: Command, lobby: Lobby): void {
  if (wantsJson(cmd)) return printJson(lobby);
  printFields([
    ["id", lobby.id],
    ["league", lobby.league_id],
    ["status", lobby.status],
    ["episode", lobby.episode_request_id],
    ["live game", lobby.play_session_id],
    ["created", shortTime(lobby.created_at)],
    ["ended", shortTime(lobby.ended_at)],
    ["error", lobby.error],
  ]);
  printTable(
    ["seat", "kind", "user", "player", "policy version"],
    lobby.seats.map((s) => [s.position, s.kind, s.user_id, s.player_id, s.policy_version_id]),
  );
}

const lobbyArg = (id: string) => checkId("lobby", id, "LOBBY");

function seatArg(seat: string): number {
  const position = Number(seat);
  if (!/^\d+$/.test(seat) || position > 31)
    throw new CliError(`SEAT: expected a whole number from 0 to 31, got '${seat}'`, EXIT.usage);
  return position;
}

export const lobby: CommandGroup = {
  register(program) {
    const group = program
      .command("lobby")
      .description("Lobbies: seat policies together for one episode in a league");

    group
      .command("create")
      .description("Open a lobby in a league")
      .argument("<league>", "league id (league_…)")
      .requiredOption(
        "--seat <seat>",
        "a seat, once per seat in order: human:USER_ID, human_open, league_player:PLAYER_ID, random or closed",
        (v: string, all: string[] = []) => [...all, v],
      )
      .option("--variant <id>", "the coworld's variant")
      .option("--config <json>", "game config overrides, a JSON object")
      .action(
        async (
          leagueId: string,
          opts: { seat: string[]; variant?: string; config?: string },
          cmd: Command,
        ) => {
          const league_id = await checkId("league", leagueId, "LEAGUE");
          const seats = [];
          for (const text of opts.seat) seats.push(await parseSeat(text));
          const overrides =
            opts.config === undefined ? undefined : parseJsonObject(opts.config, "--config");
          const client = await clientOf(cmd);
          const created = await client.lobbies.create({
            league_id,
            body: {
              num_players: seats.length,
              seats,
              ...(opts.variant ? { variant_id: opts.variant } : {}),
              ...(overrides ? { game_config_overrides: overrides } : {}),
            },
          });
          show(cmd, created);
        },
      );

    group
      .command("get")
      .description("Show a lobby and its seats")
      .argument("<lobby>", "lobby id (lby_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const lobby_id = await lobbyArg(id);
        show(cmd, await (await clientOf(cmd)).lobbies.get({ lobby_id }));
      });

    group
      .command("update")
      .description("Change an open lobby's variant or game config")
      .argument("<lobby>", "lobby id (lby_…)")
      .option("--variant <id>", "the coworld's variant")
      .option("--default-variant", "back to the league's (or the coworld's first) variant")
      .option("--config <json>", "game config overrides, a JSON object (replaces the lobby's)")
      .action(
        async (
          id: string,
          opts: { variant?: string; defaultVariant?: boolean; config?: string },
          cmd: Command,
        ) => {
          const lobby_id = await lobbyArg(id);
          if (opts.variant !== undefined && opts.defaultVariant)
            throw new CliError("give --variant or --default-variant, not both", EXIT.usage);
          const overrides =
            opts.config === undefined ? undefined : parseJsonObject(opts.config, "--config");
          const variant = opts.defaultVariant
            ? { variant_id: null }
            : opts.variant !== undefined
              ? { variant_id: opts.variant }
              : {};
          if (overrides === undefined && !("variant_id" in variant))
            throw new CliError(
              "nothing to change: give --variant, --default-variant or --config",
              EXIT.usage,
            );
          show(
            cmd,
            await (
              await clientOf(cmd)
            ).lobbies.update({
              lobby_id,
              body: { ...variant, ...(overrides ? { game_config_overrides: overrides } : {}) },
            }),
          );
        },
      );

    group
      .command("seat")
      .description("Change a seat of an open lobby (its claim is given up)")
      .argument("<lobby>", "lobby id (lby_…)")
      .argument("<seat>", "the seat (0 first)")
      .argument("<kind>", "human:USER_ID, human_open, league_player:PLAYER_ID, random or closed")
      .action(async (id: string, seat: string, kind: string, _opts: unknown, cmd: Command) => {
        const lobby_id = await lobbyArg(id);
        const position = seatArg(seat);
        show(
          cmd,
          await (
            await clientOf(cmd)
          ).lobbies.setSeat({ lobby_id, position, body: await parseSeat(kind) }),
        );
      });

    group
      .command("claim")
      .description(
        "Claim a human seat: with a policy version it plays when the lobby is started; without, you play it live when it is launched",
      )
      .argument("<lobby>", "lobby id (lby_…)")
      .argument("<seat>", "the seat (0 first)")
      .option("--policy-version <id>", "your policy version's id")
      .action(async (id: string, seat: string, opts: { policyVersion?: string }, cmd: Command) => {
        const lobby_id = await lobbyArg(id);
        const position = seatArg(seat);
        const body =
          opts.policyVersion === undefined
            ? {}
            : { policy_version_id: await checkUuid(opts.policyVersion, "--policy-version") };
        show(cmd, await (await clientOf(cmd)).lobbies.claim({ lobby_id, position, body }));
      });

    group
      .command("empty")
      .description(
        "Take the person out of a claimed seat (yours, or anyone's in a lobby you manage)",
      )
      .argument("<lobby>", "lobby id (lby_…)")
      .argument("<seat>", "the seat (0 first)")
      .action(async (id: string, seat: string, _opts: unknown, cmd: Command) => {
        const lobby_id = await lobbyArg(id);
        show(
          cmd,
          await (
            await clientOf(cmd)
          ).lobbies.removeSeatPlayer({ lobby_id, position: seatArg(seat) }),
        );
      });

    for (const [name, description] of [
      ["leave", "Give up the seats you claimed"],
      ["start", "Play the lobby's episode on the runners, each human seat by its claimed policy"],
      [
        "launch",
        "Play the lobby live: people join their seats with `gauntlet hosted join`, champions play the rest",
      ],
      ["end", "End a running lobby now (its episode or live game is cancelled)"],
      ["cancel", "Cancel an open lobby"],
    ] as const) {
      group
        .command(name)
        .description(description)
        .argument("<lobby>", "lobby id (lby_…)")
        .action(async (id: string, _opts: unknown, cmd: Command) => {
          const lobby_id = await lobbyArg(id);
          show(cmd, await (await clientOf(cmd)).lobbies[name]({ lobby_id }));
        });
    }
  },
};
