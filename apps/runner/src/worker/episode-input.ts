// From a leased job to the executor's input: the manifest checked, the coworld's files and
// each policy's files in place (bundles by hash), one player per seat.
import { mkdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { CoworldManifest, type LeasedJob } from "@gauntlet/core";

import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import { EpisodeInputError, type EpisodePlayer, type RunEpisodeInput } from "../episode/types.ts";
import type { BundleCache } from "./bundle-cache.ts";

/** Where a job's episode runs, inside its job directory. */
export function episodeDir(jobDir: string): string {
  return join(jobDir, "episode");
}

/** The player process of a seat a person plays: it relays the seat to the server (human-relay.ts). */
const HUMAN_RELAY = fileURLToPath(new URL("../episode/human-relay.ts", import.meta.url));

/**
 * The player of a seat a person plays: the runner's own relay program, not a competitor's code,
 * so it runs on the runner's side of any sandbox (run-episode.ts) and reaches the server as the
 * runner does — any host name, ws:// or wss://, and the CA bundle the runner was given
 * (NODE_EXTRA_CA_CERTS) for a server whose certificate a private CA signed.
 */
export function humanSeat(relayUrl: string, displayName: string): EpisodePlayer {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  return {
    runnable: {
      run: ["node", basename(HUMAN_RELAY)],
      env: {
        GAUNTLET_RELAY_URL: relayUrl,
        ...(ca === undefined ? {} : { NODE_EXTRA_CA_CERTS: ca }),
      },
    },
    cwd: dirname(HUMAN_RELAY),
    runnersOwn: true,
    displayName,
  };
}

export type PreparedEpisode = Omit<RunEpisodeInput, "signal" | "onEvent">;

export async function prepareEpisode(
  job: LeasedJob,
  options: { cache: BundleCache; jobDir: string; runtime: RuntimeKind },
): Promise<PreparedEpisode> {
  if (job.game_config_overlay_error !== undefined)
    throw new EpisodeInputError(job.game_config_overlay_error);
  const parsed = CoworldManifest.safeParse(job.manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EpisodeInputError(
      `the coworld's manifest is invalid at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "unknown problem"}`,
    );
  }
  const seats = [...job.players].sort((a, b) => a.position - b.position);
  seats.forEach((seat, index) => {
    if (seat.position !== index)
      throw new EpisodeInputError(
        `the seats are not numbered 0 to ${seats.length - 1} (found position ${seat.position})`,
      );
  });

  // A runnable runs its own files only. Without files (an image), it runs on docker alone: on
  // any other runtime it would run its `run` argv in somebody else's directory.
  const imageOnly = async (what: string): Promise<string> => {
    if (options.runtime !== "docker")
      throw new EpisodeInputError(
        `${what} has no files of its own (an image and no bundle): it runs on the docker runtime only`,
      );
    const empty = join(options.jobDir, "no-files");
    await mkdir(empty, { recursive: true });
    return empty;
  };
  const coworldDir =
    job.coworld.bundle_sha256 !== null
      ? await options.cache.directory(job.coworld.bundle_sha256)
      : await imageOnly("the coworld");
  // Who each runnable is, for what the runner keeps of it (its compile cache): the coworld
  // version's game or bundled player, a policy version — never a path or the files' bytes.
  const coworld = `coworld ${job.coworld.id} ${job.coworld.version} ${job.coworld.bundle_sha256 ?? "image"}`;
  const players: EpisodePlayer[] = [];
  for (const seat of seats) {
    if (seat.human_relay) {
      players.push(humanSeat(seat.human_relay.url, seat.display_name));
      continue;
    }
    let cwd: string;
    let identity: string | undefined;
    if (typeof seat.bundled_player_id === "string") {
      // The coworld's own player runs in the coworld's files, as the game does.
      cwd =
        seat.bundle_sha256 === null
          ? coworldDir
          : await options.cache.directory(seat.bundle_sha256);
      identity = `${coworld} player ${seat.bundled_player_id}`;
    } else if (seat.bundle_sha256 !== null) {
      cwd = await options.cache.directory(seat.bundle_sha256);
      identity =
        typeof seat.policy_version_id === "string"
          ? `policy-version ${seat.policy_version_id} ${seat.bundle_sha256}`
          : undefined;
    } else cwd = await imageOnly(`the player in slot ${seat.position}`);
    players.push({
      runnable: seat.runnable,
      cwd,
      identity,
      env: seat.secret_env,
      displayName: seat.display_name,
    });
  }
  const workDir = episodeDir(options.jobDir);
  await mkdir(workDir, { recursive: true });
  return {
    coworldDir,
    gameIdentity: `${coworld} game`,
    manifest: parsed.data,
    // The private input goes into the game's config alone (docs/runtime.md, "Private inputs").
    gameConfig: { ...job.game_config, ...job.game_config_overlay },
    players,
    secrets: job.secrets,
    playerState: job.player_state?.map((seat) =>
      seat === null
        ? null
        : {
            start: seat.content_base64 === null ? null : Buffer.from(seat.content_base64, "base64"),
            keep: seat.keep,
          },
    ),
    workDir,
    deadlineMs: job.deadline_ms,
    runtime: options.runtime,
  };
}
