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

  let coworldDir: string;
  if (job.coworld.bundle_sha256 !== null)
    coworldDir = await options.cache.directory(job.coworld.bundle_sha256);
  else {
    // An image-only coworld: on the process runtime the executor refuses it for want of argv.
    coworldDir = join(options.jobDir, "coworld");
    await mkdir(coworldDir, { recursive: true });
  }
  const players: EpisodePlayer[] = [];
  for (const seat of seats) {
    if (seat.human_relay) {
      players.push(humanSeat(seat.human_relay.url, seat.display_name));
      continue;
    }
    players.push({
      runnable: seat.runnable,
      cwd:
        seat.bundle_sha256 === null
          ? coworldDir
          : await options.cache.directory(seat.bundle_sha256),
      env: seat.secret_env,
      displayName: seat.display_name,
    });
  }
  const workDir = episodeDir(options.jobDir);
  await mkdir(workDir, { recursive: true });
  return {
    coworldDir,
    manifest: parsed.data,
    gameConfig: job.game_config,
    players,
    secrets: job.secrets,
    workDir,
    deadlineMs: job.deadline_ms,
    runtime: options.runtime,
  };
}
