// The headless Chromium that browser tests drive (the server's pages, the CLI's sign-in): the
// system package, installed on first use, launched quiet (no GPU, sync, updates or QUIC).
import { execFileSync } from "node:child_process";
import { join } from "node:path";

import type { Browser } from "playwright-core";

const ENSURE = join(import.meta.dirname, "../../../tooling/scripts/ensure-system-packages.sh");

export async function launchTestBrowser(): Promise<Browser> {
  execFileSync("bash", [ENSURE, "chromium"], { stdio: "inherit" });
  // Imported here: most users of these helpers never start a browser.
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
