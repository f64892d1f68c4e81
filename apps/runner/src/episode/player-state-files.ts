// Player state of stateful coworlds in the episode's work directory (docs/runtime.md, "Player
// state"): the runner writes each seat's start state as a file of its own there and names the
// files to the game in COGAME_PLAYER_STATE; the game writes each kept seat's new state to the
// `out` file named there. The work directory is the game's alone (no player mounts it), and what
// the game leaves is read as the results are: only a regular file, never through a link.
import { constants } from "node:fs";
import { open, rm } from "node:fs/promises";
import { join } from "node:path";

import { MAX_PLAYER_STATE_BYTES } from "@gauntlet/core";

import { readOutput } from "./episode-files.ts";
import type { SeatState } from "./types.ts";

const inName = (slot: number) => `player_state_in_${slot}`;
const outName = (slot: number) => `player_state_out_${slot}`;

/**
 * Writes the start states and answers the game's environment for them: `COGAME_PLAYER_STATE`,
 * a JSON array by slot of `{in, out}` file URIs (`in` null for a new state, `out` null when the
 * new state is not kept) or null for a seat without state.
 */
export async function writeStateInputs(
  workDir: string,
  states: readonly (SeatState | null)[] | undefined,
  uri: (name: string) => string,
): Promise<Record<string, string>> {
  if (states === undefined) return {};
  const entries = [];
  for (const [slot, state] of states.entries()) {
    await rm(join(workDir, inName(slot)), { force: true });
    await rm(join(workDir, outName(slot)), { force: true });
    if (state === null) {
      entries.push(null);
      continue;
    }
    if (state.start !== null) {
      // A new file of the runner's own: never one (or a link) an earlier game left here.
      const flags =
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
      const handle = await open(join(workDir, inName(slot)), flags, 0o600);
      try {
        await handle.writeFile(state.start);
      } finally {
        await handle.close();
      }
    }
    entries.push({
      in: state.start === null ? null : uri(inName(slot)),
      out: state.keep ? uri(outName(slot)) : null,
    });
  }
  return { COGAME_PLAYER_STATE: JSON.stringify(entries) };
}

/** The new state of each kept seat, or null (none written, not a regular file, or too large). */
export async function readStateOutputs(
  workDir: string,
  states: readonly (SeatState | null)[] | undefined,
  slots: number,
): Promise<(Buffer | null)[]> {
  const out: (Buffer | null)[] = [];
  for (let slot = 0; slot < slots; slot++) {
    if (states?.[slot]?.keep !== true) {
      out.push(null);
      continue;
    }
    const read = await readOutput(join(workDir, outName(slot)), MAX_PLAYER_STATE_BYTES);
    out.push(read.found ? read.bytes : null);
  }
  return out;
}
