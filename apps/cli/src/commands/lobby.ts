// gauntlet lobby create|get|claim|leave|start|cancel
import type { Lobby } from "@gauntlet/core";
import type { Command } from "commander";
import { checkId, checkUuid, clientOf, parseJsonObject, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

type SeatInput = { kind: "human"; user_id: string } | { kind: "league_player"; player_id: string } | { kind: "human_open" | "random" | "closed" };

/** `human:user_…`, `human_open`, `league_player:ply_…`, `random` or `closed`. */
async function parseSeat(text: string): Promise<SeatInput> {
  const [kind, ref, ...rest] = text.split(":");
  if (rest.length === 0 && kind === "human" && ref) return { kind, user_id: await checkId("user", ref, "--seat human:USER") };
  if (rest.length === 0 && kind === "league_player" && ref) return { kind, player_id: await checkId("player", ref, "--seat league_player:PLAYER") };
  if (ref === undefined && (kind === "human_open" || kind === "random" || kind === "closed")) return { kind };
  throw new CliError(`--seat: expected human:USER_ID, human_open, league_player:PLAYER_ID, random or closed, got '${text}'`, EXIT.usage);
}

function show(cmd: Command, lobby: Lobby): void {
  if (wantsJson(cmd)) return printJson(lobby);
  printFields([
    ["id", lobby.id],
    ["league", lobby.league_id],
    ["status", lobby.status],
    ["episode", lobby.episode_request_id],
    ["created", shortTime(lobby.created_at)],
    ["ended", shortTime(lobby.ended_at)],
    ["error", lobby.error],
  ]);
  printTable(["seat", "kind", "user", "player", "policy version"], lobby.seats.map((s) => [s.position, s.kind, s.user_id, s.player_id, s.policy_version_id]));
}

const lobbyArg = (id: string) => checkId("lobby", id, "LOBBY");

export const lobby: CommandGroup = {
  register(program) {
    const group = program.command("lobby").description("Lobbies: seat policies together for one episode in a league");

    group
      .command("create")
      .description("Open a lobby in a league")
      .argument("<league>", "league id (league_…)")
      .requiredOption("--seat <seat>", "a seat, once per seat in order: human:USER_ID, human_open, league_player:PLAYER_ID, random or closed", (v: string, all: string[] = []) => [...all, v])
      .option("--variant <id>", "the coworld's variant")
      .option("--config <json>", "game config overrides, a JSON object")
      .action(async (leagueId: string, opts: { seat: string[]; variant?: string; config?: string }, cmd: Command) => {
        const league_id = await checkId("league", leagueId, "LEAGUE");
        const seats = [];
        for (const text of opts.seat) seats.push(await parseSeat(text));
        const overrides = opts.config === undefined ? undefined : parseJsonObject(opts.config, "--config");
        const client = await clientOf(cmd);
        const created = await client.lobbies.create({
          league_id,
          body: { num_players: seats.length, seats, ...(opts.variant ? { variant_id: opts.variant } : {}), ...(overrides ? { game_config_overrides: overrides } : {}) },
        });
        show(cmd, created);
      });

    group
      .command("get")
      .description("Show a lobby and its seats")
      .argument("<lobby>", "lobby id (lby_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const lobby_id = await lobbyArg(id);
        show(cmd, await (await clientOf(cmd)).lobbies.get({ lobby_id }));
      });

    group
      .command("claim")
      .description("Claim a human seat with one of your policy versions")
      .argument("<lobby>", "lobby id (lby_…)")
      .argument("<seat>", "the seat (0 first)")
      .requiredOption("--policy-version <id>", "your policy version's id")
      .action(async (id: string, seat: string, opts: { policyVersion: string }, cmd: Command) => {
        const lobby_id = await lobbyArg(id);
        const position = Number(seat);
        if (!Number.isInteger(position) || position < 0 || position > 31) throw new CliError(`SEAT: expected a whole number from 0 to 31, got '${seat}'`, EXIT.usage);
        const policy_version_id = await checkUuid(opts.policyVersion, "--policy-version");
        show(cmd, await (await clientOf(cmd)).lobbies.claim({ lobby_id, position, body: { policy_version_id } }));
      });

    for (const [name, description] of [
      ["leave", "Give up the seats you claimed"],
      ["start", "Play the lobby's episode on the runners"],
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
