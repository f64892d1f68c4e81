// What a browser test of play starts: a test server (scheduler off), a runner process playing
// its episodes, and headless Chromium to open the pages a person would.
import type { Browser } from "playwright-core";

import { launchTestBrowser } from "./browser.ts";
import { startRunnerProcess, type RunnerProcess } from "./runner-process.ts";
import { startTestServer, type TestServer } from "./start-server.ts";

export interface BrowserPlay {
  t: TestServer;
  runner: RunnerProcess;
  browser: Browser;
  /** Closes the browser, stops the runner, then closes the server. */
  close(): Promise<void>;
}

export async function startBrowserPlay(runnerId: string): Promise<BrowserPlay> {
  const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  let runner: RunnerProcess | undefined;
  try {
    const started = await startRunnerProcess(t, runnerId);
    runner = started;
    const browser = await launchTestBrowser();
    return {
      t,
      runner: started,
      browser,
      async close() {
        await browser.close();
        await started.stop();
        await t.close();
      },
    };
  } catch (error) {
    await runner?.stop();
    await t.close();
    throw error;
  }
}
