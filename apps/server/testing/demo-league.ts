// A test server with what a first `gauntlet-server start` makes: the example coworld (GridRush,
// its play modules) and the demo league of its baseline players.
import { createDemoLeague, type DemoLeague } from "../src/embedded/demo.ts";
import { registerExampleCoworld } from "../src/embedded/example-coworld.ts";
import type { TestServer } from "./start-server.ts";

export async function seedDemoLeague(
  t: TestServer,
): Promise<DemoLeague & { coworldId: string; coworldName: string }> {
  const example = await registerExampleCoworld(t.server.store, t.server.context.blobs);
  if (!example) throw new Error("the example coworld was not registered (is it there already?)");
  const demo = await createDemoLeague(
    t.server.store.db,
    t.server.context.blobs,
    t.server.context.events.bus,
    example,
  );
  if (!demo) throw new Error("the demo league was not created");
  return { ...demo, coworldId: example.id, coworldName: example.name };
}
