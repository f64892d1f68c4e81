// The browser half of `gauntlet auth login`: a one-shot HTTP listener on 127.0.0.1 receives
// the sign-in code from the server's /cli-auth page (which redirects only to this machine),
// checked against a random state so another page cannot feed it a code.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { CliError, EXIT } from "./exit-codes.ts";

export interface PendingLogin {
  /** The sign-in page to open. */
  url: string;
  /** Resolves with the code once the browser comes back. */
  code: Promise<string>;
  close(): void;
}

const DONE_PAGE = `<!doctype html><meta charset="utf-8"><title>Gauntlet</title><body style="font-family:sans-serif;margin:3em"><h1>Signed in</h1><p>You can close this tab and return to the terminal.</p></body>`;

export async function startBrowserLogin(
  server: string,
  timeoutMs = 10 * 60_000,
): Promise<PendingLogin> {
  const state = randomBytes(16).toString("hex");
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | null = null;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const listener = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    const got = url.searchParams.get("code");
    if (url.searchParams.get("state") !== state || !got) {
      res
        .writeHead(400, { "content-type": "text/plain" })
        .end("This sign-in link is not the one this terminal is waiting for.");
      return;
    }
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" })
      .end(DONE_PAGE);
    settle?.resolve(got);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = listener.address() as AddressInfo;
  const timer = setTimeout(
    () =>
      settle?.reject(
        new CliError("sign-in timed out: nobody finished signing in within 10 minutes", EXIT.auth),
      ),
    timeoutMs,
  );
  const close = () => {
    clearTimeout(timer);
    listener.closeAllConnections();
    listener.close();
  };
  void code.then(close, close);
  const page = new URL(`${server.replace(/\/+$/, "")}/cli-auth`);
  page.searchParams.set("callback", `http://127.0.0.1:${port}/callback`);
  page.searchParams.set("state", state);
  return { url: page.toString(), code, close };
}

/**
 * Whether a browser can be opened here: $BROWSER names one, or the platform has a desktop (macOS,
 * Windows, or a display on any other system). On a headless machine xdg-open fails unseen.
 */
export function canOpenBrowser(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (env.BROWSER) return true;
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Opens `url` in the user's browser ($BROWSER, else the platform's opener); false if it could not. */
export function openBrowser(url: string): boolean {
  if (!canOpenBrowser()) return false;
  const custom = process.env.BROWSER;
  const [command, args] = custom
    ? [custom, [url]]
    : process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
