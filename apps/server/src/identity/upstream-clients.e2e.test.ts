// The hosted service's Python clients, their own code, against `gauntlet-server start` (the demo
// league played by its embedded runner): softmax-cli's `softmax login --login-server` on the data
// host, with Chromium as the browser a person signs in with, then `softmax status` naming the
// user; and coworld's `CoworldApiClient.create_replay_session` on an episode of the demo league,
// its viewer playing the replay in Chromium.
//
// The clients are read from fetched repositories (SOFTMAX_CLI_REPO, COWORLD_REPO) at test time,
// never copied into this repository. softmax-cli runs under Debian's /usr/bin/python3 with
// Debian's packages (installed here by ensure-system-packages.sh when missing), three library
// calls bridged to Debian's older typer and pydantic (testing/upstream-softmax-cli.py says which);
// coworld's client under python3 with pydantic 2 (testing/upstream-coworld-replay.py). The page
// login opens is whichever its version opens: `/cli-login` with the token in the callback (the
// fetched version), or `/cli-auth` with a code it exchanges (a newer one). Skipped,
// saying why, where a repository, a package or a python is absent. The command runs on SQLite in
// a temporary directory, so the PostgreSQL run skips it.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { RoundPage } from "@gauntlet/core";

import { launchTestBrowser } from "../../testing/browser.ts";
import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { TEST_ANONYMOUS_CAPACITIES } from "../../testing/test-capacities.ts";
import { eventually } from "../../testing/test-league.ts";

const ROOT = join(import.meta.dirname, "../../../..");
const ENSURE = join(ROOT, "tooling/scripts/ensure-system-packages.sh");
const MAIN = join(import.meta.dirname, "../cli/main.ts");
const SOFTMAX = join(import.meta.dirname, "../../testing/upstream-softmax-cli.py");
const COWORLD = join(import.meta.dirname, "../../testing/upstream-coworld-replay.py");
const softmaxRepo = process.env.SOFTMAX_CLI_REPO ?? "/work/.mirror/Metta-AI+softmax-cli/repo";
const coworldRepo = process.env.COWORLD_REPO ?? "/work/.mirror/Metta-AI+coworld/repo";
const API_CLIENT = "src/coworld/api_client.py";
const DEBIAN_PYTHON = "/usr/bin/python3";
/** softmax-cli's dependencies, as Debian bookworm packages them (pydantic comes with fastapi). */
const DEBIAN_PACKAGES = [
  "python3-typer",
  "python3-fastapi",
  "python3-uvicorn",
  "python3-httpx",
  "python3-rich",
  "python3-yaml",
];
const EMAIL = "sam@example.test";
const PASSWORD = "correct horse battery";

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return null;
  }
}

function whySoftmaxSkips(): string | null {
  if (process.env.DATABASE_URL) return "the command runs on SQLite; the SQLite run covers it";
  if (run("git", ["--git-dir", softmaxRepo, "cat-file", "-e", "HEAD:src/softmax/cli.py"]) === null)
    return `no Metta-AI/softmax-cli at ${softmaxRepo} (set SOFTMAX_CLI_REPO)`;
  if (run("bash", [ENSURE, "script", ...DEBIAN_PACKAGES]) === null)
    return `Debian's ${DEBIAN_PACKAGES.join(", ")} are missing and could not be installed (not root?)`;
  if (run(DEBIAN_PYTHON, ["-c", "import typer, fastapi, uvicorn, httpx, rich, yaml"]) === null)
    return `${DEBIAN_PYTHON} cannot import typer, fastapi, uvicorn, httpx, rich and yaml`;
  return null;
}

function whyCoworldSkips(): string | null {
  if (run("git", ["--git-dir", coworldRepo, "cat-file", "-e", `HEAD:${API_CLIENT}`]) === null)
    return `no Metta-AI/coworld at ${coworldRepo} (set COWORLD_REPO)`;
  const pydantic = run("python3", ["-c", "import pydantic; print(pydantic.VERSION)"]);
  if (pydantic === null || !pydantic.startsWith("2."))
    return "python3 with pydantic 2 is not installed";
  return null;
}

const softmaxSkip = whySoftmaxSkips();
const coworldSkip = softmaxSkip ?? whyCoworldSkips();
if (softmaxSkip) console.warn(`skipping softmax-cli against the data host: ${softmaxSkip}`);
else if (coworldSkip) console.warn(`skipping coworld's create_replay_session: ${coworldSkip}`);

const scratch = mkdtempSync(join(tmpdir(), "gauntlet-upstream-clients-"));
const softmaxTree = join(scratch, "softmax-cli");
const softmaxSrc = join(softmaxTree, "src");
const opened = join(scratch, "opened-urls");
/** What the command printed: the addresses, the demo league and the example coworld. */
let banner = "";
let server: ChildProcess | undefined;
let login: ChildProcess | undefined;
let browser: Browser | undefined;
/** The data host's root: what softmax-cli's --login-server and coworld's server_url are. */
let root = "";
/** The alt host's root, where the test looks things up. */
let alt = "";
let token = "";

/** The environment a client runs in: the run's own HOME (the test preset's), and the browser. */
function clientEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Wide, so rich prints the sign-in address on one line.
  return { ...process.env, COLUMNS: "400", NO_COLOR: "1", ...extra };
}

/** Text as a terminal shows it: rich still underlines and bolds in a terminal without colour. */
const STYLES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function softmax(args: string[]): string {
  return execFileSync(DEBIAN_PYTHON, [SOFTMAX, softmaxSrc, ...args], {
    encoding: "utf8",
    env: clientEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

beforeAll(async () => {
  if (softmaxSkip) return;
  execFileSync("bash", [
    "-c",
    `mkdir -p ${sh(softmaxTree)} && git --git-dir=${sh(softmaxRepo)} archive HEAD src | tar -x -C ${sh(softmaxTree)}`,
  ]);
  const dataDir = join(scratch, "data");
  mkdirSync(dataDir);
  server = spawn(
    process.execPath,
    [MAIN, "start", "--port", "0", "--data-dir", dataDir, "--runner-capacity", "1"],
    {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        GAUNTLET_ANONYMOUS_CAPACITIES: TEST_ANONYMOUS_CAPACITIES,
      },
    },
  );
  server.stdout?.on("data", (d: Buffer) => (banner += d.toString()));
  server.stderr?.on("data", (d: Buffer) => (banner += d.toString()));
  await eventually(`the banner's last line in:\n${banner}`, async () =>
    banner.includes("Ctrl-C stops."),
  );
  root = /data host, prefix \/observatory\):\s+(http:\/\/\S+)\/observatory/.exec(banner)?.[1] ?? "";
  alt = /alt host, at the root\):\s+(http:\/\/\S+)/.exec(banner)?.[1] ?? "";
  expect(root, banner).toMatch(/^http:\/\/localhost:\d+$/);
  // A person with a password: the account softmax login signs in to.
  execFileSync(process.execPath, [MAIN, "users", "add", "--email", EMAIL, "--data-dir", dataDir], {
    input: `${PASSWORD}\n`,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  // Python's webbrowser opens what BROWSER names with the address: like xdg-open, it hands the
  // address to the browser (the test's Chromium, below) and returns.
  const launcher = join(scratch, "open-url");
  writeFileSync(launcher, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${sh(opened)}\n`);
  chmodSync(launcher, 0o755);
  browser = await launchTestBrowser();
}, PATIENCE_MS);

afterAll(async () => {
  await browser?.close();
  if (login && login.exitCode === null) login.kill("SIGKILL");
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(scratch, { recursive: true, force: true });
}, 30_000);

describe.skipIf(softmaxSkip !== null)("softmax-cli against the data host", () => {
  it(
    "softmax login: the browser signs in at the address it opened, the callback gets the token; status names the user",
    async () => {
      if (!browser) throw new Error("no browser");
      // `softmax login` wants a terminal on standard input (a person at the keyboard): script(1)
      // gives it one, which nobody types into. Its stdin stays open so the terminal stays up.
      let raw = "";
      const output = () => raw.replace(STYLES, "");
      const command = [DEBIAN_PYTHON, SOFTMAX, softmaxSrc, "login", "--login-server", root]
        .map(sh)
        .join(" ");
      login = spawn("script", ["-qfec", command, "/dev/null"], {
        env: clientEnv({ BROWSER: join(scratch, "open-url") }),
        stdio: ["pipe", "pipe", "pipe"],
      });
      login.stdout?.on("data", (d: Buffer) => (raw += d.toString()));
      login.stderr?.on("data", (d: Buffer) => (raw += d.toString()));

      const address = await eventually("softmax login to open a browser", async () => {
        if (login?.exitCode !== null) throw new Error(`softmax login ended:\n${output()}`);
        return existsSync(opened) ? readFileSync(opened, "utf8").split("\n")[0] || null : null;
      });
      // Its sign-in page at the data host's root, with its loopback callback.
      const url = new URL(address);
      expect(url.origin).toBe(root);
      expect(url.pathname).toMatch(/^\/cli-(login|auth)$/);
      expect(new URL(url.searchParams.get("callback") ?? "").hostname).toBe("127.0.0.1");
      // And printed it for a person to open by hand (the terminal's output can lag the browser).
      await eventually(`the address in softmax login's output:\n${address}`, async () =>
        output().includes(address),
      );

      // What a person does on the page.
      const callback = url.searchParams.get("callback") ?? "";
      const called: URL[] = [];
      const page = await browser.newPage();
      page.on("request", (r) => {
        if (r.url().startsWith(`${callback}?`)) called.push(new URL(r.url()));
      });
      expect((await page.goto(address))?.status()).toBe(200);
      await page.getByLabel("Email").fill(EMAIL);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      // softmax-cli ends as soon as its callback has the token: its callback server is a daemon
      // thread, so whether the browser still gets its "You're all set!" page races the exit.
      const code = await eventually("softmax login to end", async () => login?.exitCode).catch(
        (e: unknown) => {
          throw new Error(`${String(e)}\n${output()}`);
        },
      );
      await page.close();
      expect(code, output()).toBe(0);
      expect(called.length).toBe(1);
      expect([...(called[0]?.searchParams.keys() ?? [])]).toEqual(
        expect.arrayContaining([url.pathname === "/cli-login" ? "token" : "code"]),
      );
      expect(output()).toContain(`Token saved for ${root}`);
      expect(output()).toContain("Authentication successful.");
      login.stdin?.end();

      // The API is under /observatory on the same host (docs/api.md, "The hosted service's clients").
      const status = softmax(["status", "--login-server", root, "--server", `${root}/observatory`]);
      expect(status).toContain("Authenticated");
      expect(status).toContain(`user_email: ${EMAIL}`);
      expect(status).toMatch(/subject_type: user/);
      token = softmax(["get-token", "--login-server", root]).trim();
      expect(token).not.toBe("");
    },
    2 * PATIENCE_MS,
  );

  it.skipIf(coworldSkip !== null)(
    "coworld's create_replay_session opens the replay of a demo league episode, and its viewer plays it",
    async () => {
      if (!browser) throw new Error("no browser");
      expect(token, "the login test's token").not.toBe("");
      const league = /Demo league: .* \((league_[^)]+)\)/.exec(banner)?.[1] ?? "";
      const coworld = /Example coworld registered: .* \((cow_[^)]+)\)/.exec(banner)?.[1] ?? "";
      expect(league, banner).not.toBe("");
      // The demo league plays by itself: its first completed round.
      const round = await eventually(
        `a completed round of the demo league (server output:\n${banner.slice(-3000)})`,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const page = await client(alt, token).get<RoundPage>(`/v2/rounds?league_id=${league}`);
          return page.body.entries?.find((r) => r.status === "completed")?.id ?? null;
        },
        5 * PATIENCE_MS,
      );

      const apiClient = join(scratch, "api_client.py");
      writeFileSync(
        apiClient,
        execFileSync("git", ["--git-dir", coworldRepo, "show", `HEAD:${API_CLIENT}`]),
      );
      const out = execFileSync("python3", [COWORLD, apiClient, root, round], {
        encoding: "utf8",
        env: clientEnv({ SOFTMAX_TOKEN: token }),
      });
      const session = JSON.parse(out) as {
        episode_request_id: string;
        coworld_id: string;
        episode_id: string;
        replay_url: string;
        viewer_url: string;
        ready: boolean;
      };
      expect(session.coworld_id).toBe(coworld);
      expect(session.ready).toBe(true);
      const row = await client(alt, token).get<{ round_id: string; episode_id: string }>(
        `/v2/episode-requests/${session.episode_request_id}`,
      );
      expect(row.body).toMatchObject({ round_id: round, episode_id: session.episode_id });

      // The viewer the session names loads the replay in a browser.
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(e.message));
      await page.goto(session.viewer_url);
      await page.locator("body[data-loaded='true']").waitFor({ timeout: PATIENCE_MS });
      expect(problems).toEqual([]);
      await page.close();
    },
    6 * PATIENCE_MS,
  );
});
