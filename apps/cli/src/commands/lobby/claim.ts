// gauntlet lobby claim LOBBY SEAT [--policy-version]
import type { Command } from "commander";

import { checkUuid, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { lobbyArg, seatArg, writeLobby } from "./shared.ts";

export interface ClaimOptions {
  lobbyId: string;
  position: number;
  /** null: the seat is played live by the person. */
  policyVersionId: string | null;
  json: boolean;
}

export async function runClaim(options: ClaimOptions, { io, client }: Deps): Promise<void> {
  const lobby = await client.lobbies.claim({
    lobby_id: options.lobbyId,
    position: options.position,
    body: options.policyVersionId === null ? {} : { policy_version_id: options.policyVersionId },
  });
  writeLobby(io, lobby, options.json);
}

export function claimCommand(
  parent: Command,
  factory: Factory,
  run: (options: ClaimOptions, deps: Deps) => Promise<void> = runClaim,
): Command {
  return parent
    .command("claim")
    .description(
      "Claim a human seat: with a policy version it plays when the lobby is started; without, you play it live when it is launched",
    )
    .argument("<lobby>", "lobby id (lby_…)")
    .argument("<seat>", "the seat (0 first)")
    .option("--policy-version <id>", "your policy version's id")
    .action(async (id: string, seat: string, opts: { policyVersion?: string }, cmd: Command) => {
      const lobbyId = await lobbyArg(id);
      const position = seatArg(seat);
      const options = {
        lobbyId,
        position,
        policyVersionId:
          opts.policyVersion === undefined
            ? null
            : await checkUuid(opts.policyVersion, "--policy-version"),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
