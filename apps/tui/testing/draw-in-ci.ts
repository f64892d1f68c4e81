// Run as its own process by start-watch.test.ts, with CI in its environment: whether Ink's CI
// detection applies is decided when Ink is first loaded, so it cannot be tried inside the test's
// own process. Mounts the UI on a stand-in terminal (TTY streams) and prints "drew" if a frame
// reached the screen while the UI was running, "blank" if nothing did before it quit.
import { PassThrough, Writable } from "node:stream";

import { createClient } from "@gauntlet/sdk";

import { themeFor } from "../src/components/theme.ts";
import { Notices } from "../src/data/notices.ts";
import { mountWatch } from "../src/start-watch.ts";

let drawn = "";
const stdout = Object.assign(
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      drawn += chunk.toString("utf8");
      done();
    },
  }),
  { isTTY: true, columns: 100, rows: 30 },
);
const stdin = Object.assign(new PassThrough(), {
  isTTY: true,
  setRawMode: () => stdin,
  ref: () => stdin,
  unref: () => stdin,
});
const stderr = new PassThrough();

// Nothing listens on port 9: the UI draws its header and reports the failed loads in its status line.
const client = createClient({ baseUrl: "http://127.0.0.1:9", token: null, env: {}, retries: 0 });
const { instance, exited } = mountWatch({
  client,
  notices: new Notices(),
  flags: {},
  theme: themeFor({ NO_COLOR: "1" }),
  stdin,
  stdout,
  stderr,
});

const deadline = Date.now() + 20_000;
while (!drawn.includes("gauntlet") && Date.now() < deadline)
  await new Promise((resolve) => setTimeout(resolve, 20));
const verdict = drawn.includes("gauntlet") ? "drew" : "blank";
instance.unmount();
await exited;
process.stdout.write(`${verdict}\n`);
process.exit(0);
