// One advance at a time per tournament within this process (the bus, a wave's end and a
// commissioner's `:advance` may arrive together); across replicas the wave counter's
// compare-and-set in waves.ts keeps a wave from starting twice.
import type { Kysely } from "kysely";

import { settled } from "@gauntlet/core";

import type { EventBus } from "../events/bus.ts";
import type { Database } from "../store/schema.ts";
import { advance } from "./waves.ts";

const queues = new Map<string, Promise<void>>();

export function advanceInTurn(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  tournamentId: string,
): Promise<void> {
  const before = queues.get(tournamentId) ?? Promise.resolve();
  // Each advance's failure is its own caller's: the next one only waits for it to be over.
  const mine = settled(before).then(() => advance(db, bus, tournamentId));
  const tail = settled(mine);
  queues.set(tournamentId, tail);
  void tail.then(() => {
    if (queues.get(tournamentId) === tail) queues.delete(tournamentId);
  });
  return mine;
}
