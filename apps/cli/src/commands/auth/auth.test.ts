// `gauntlet auth …` without a process: what the verbs parse their flags into, a token pasted or
// piped into standard input, status on a terminal, off one and with --json, and players, against
// a real server on a free port with a config directory of the test's own.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { beforeEach, describe, expect, it, vi } from "vitest";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { cleanEnv, MAIN } from "../../../test/run-cli.ts";
import { canOpenBrowser } from "../../browser-login.ts";
import { loginCommand, type LoginOptions } from "./login.ts";

let email = "";
const cli = useCliServer(async (server) => {
  const user = await server.newUser();
  email = user.email;
  return user.token;
});

let home = "";
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "gauntlet-auth-"));
  vi.stubEnv("XDG_CONFIG_HOME", home);
  vi.stubEnv("GAUNTLET_TOKEN", "");
  vi.stubEnv("GAUNTLET_SERVER", "");
});

const savedTokens = () =>
  Object.values(
    (
      JSON.parse(readFileSync(join(home, "gauntlet", "credentials.json"), "utf8")) as {
        servers: Record<string, { token: string }>;
      }
    ).servers,
  ).map((s) => s.token);

const auth = (args: readonly string[], options: { isTTY?: boolean; input?: string } = {}) =>
  cli.gauntlet(["--server", cli.url, "auth", ...args], options);

describe("parsing", () => {
  it("login: the browser by default, --no-browser only prints, --with-token reads input", async () => {
    const login = (args: string[]) =>
      parsed<LoginOptions>(
        (parent, run) => loginCommand(parent, cli.factory(), run),
        ["--server", "http://127.0.0.1:1", "login", ...args],
      );
    expect(await login([])).toEqual({ method: "browser", openBrowser: true, json: false });
    expect(await login(["--no-browser"])).toMatchObject({ openBrowser: false });
    expect(await login(["--with-token", "--json"])).toMatchObject({ method: "token", json: true });
  });

  it("login without a server says how to name one, exit 2", async () => {
    expect(await cli.gauntlet(["auth", "login", "--with-token"], { input: "t" })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: which server? pass --server URL (or set GAUNTLET_SERVER): gauntlet auth login --server https://gauntlet.example.com\n",
    });
  });

  it.each([
    [
      undefined,
      "--with-token reads the token from standard input: gauntlet auth login --with-token < token.txt",
    ],
    ["\n", "--with-token: standard input was empty"],
  ])("--with-token with input %j is refused in one line, exit 2", async (input, message) => {
    expect(await auth(["login", "--with-token"], input === undefined ? {} : { input })).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: ${message}\n`,
    });
  });
});

describe("output", () => {
  it("signs in with a pasted token, shows status and the token, signs out", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    expect(await auth(["login", "--with-token"], { input: "not-a-token\n" })).toMatchObject({
      code: 4,
    });
    const login = await auth(["login", "--with-token"], { input: `${cli.token}\n` });
    expect(login).toEqual({
      code: 0,
      stdout: "",
      stderr: `Signed in to ${cli.url} as ${email} (user).\n`,
    });
    expect(savedTokens()).toEqual([cli.token]);

    const status = await auth(["status"], { isTTY: true });
    const fields = stripVTControlCharacters(status.stdout);
    expect(fields).toMatch(
      new RegExp(
        `^server:\\s+${cli.url}\\nsigned in as:\\s+${email}\\nsubject:\\s+user user_\\S+\\nadmin:\\s+no\\ntoken from:\\s+saved sign-in\\n`,
      ),
    );
    expect(fields).toMatch(/\nbudget \S+:\s+\d+\/\d+\n/);
    expect(status.stdout).not.toBe(fields);
    const me = (await cli.sdk().whoami()) as unknown;
    expect(JSON.parse((await auth(["status", "--json"])).stdout)).toEqual(me);
    expect(await auth(["token"])).toEqual({ code: 0, stdout: `${cli.token}\n`, stderr: "" });
    expect(JSON.parse((await auth(["token", "--json"])).stdout)).toEqual({
      server: cli.url,
      token: cli.token,
    });

    expect(await auth(["logout"])).toEqual({
      code: 0,
      stdout: "",
      stderr: `Signed out of ${cli.url}.\n`,
    });
    expect(JSON.parse((await auth(["logout", "--json"])).stdout)).toEqual({
      server: cli.url,
      removed: false,
    });
    for (const verb of ["status", "token"])
      expect(await auth([verb])).toEqual({
        code: 4,
        stdout: "",
        stderr: `gauntlet: not signed in to ${cli.url}: run \`gauntlet auth login\`\n`,
      });
  });

  it("login --json prints who signed in; GAUNTLET_TOKEN shows as the token's source", async () => {
    const login = await auth(["login", "--with-token", "--json"], { input: cli.token });
    expect(JSON.parse(login.stdout)).toEqual(await cli.sdk().whoami());
    vi.stubEnv("GAUNTLET_TOKEN", cli.token);
    expect((await auth(["status"])).stdout).toMatch(/^token from:\s+GAUNTLET_TOKEN$/m);
  });

  it("creates, lists and uses players", async () => {
    // A new user has one player already, made for them.
    expect((await auth(["player", "list"])).stdout).toMatch(
      /^ID\s+NAME\s+CREATED\nply_\S+\s+\S+\s+2\d{3}-.*\n$/,
    );
    const created = await auth(["player", "create", "unit-player"]);
    const id = /^created player unit-player \((ply_\S+)\)\n$/.exec(created.stderr)?.[1] ?? "";
    expect(id).not.toBe("");
    const listed = await auth(["player", "list"]);
    expect(listed.stdout).toMatch(new RegExp(`\\n${id}  unit-player\\s+2\\d{3}-`));
    expect(JSON.parse((await auth(["player", "list", "--json"])).stdout)).toEqual(
      await cli.sdk().players.list(),
    );
    expect((await auth(["player", "use", "ply_x"])).code).toBe(2);
    const unknown = await auth(["player", "use", "nobody"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^gauntlet: PLAYER: no player named 'nobody' \(there are: /);
    expect(unknown.stderr).toContain(`unit-player (${id})`);

    // By its name, as `player list` shows it (the id works the same).
    const used = await auth(["player", "use", "unit-player"]);
    expect(used).toEqual({
      code: 0,
      stdout: "",
      stderr: `Now acting as player ${id} on ${cli.url}.\n`,
    });
    const [saved] = savedTokens();
    expect((await cli.sdk(saved).whoami()).subject_type).toBe("player");
  });
});

describe("browser sign-in, before the browser comes back", () => {
  /** What `auth login` says on standard error until `done` holds; then it is stopped. */
  async function saysUntil(env: Record<string, string | undefined>, done: RegExp): Promise<string> {
    const login = spawn(process.execPath, [MAIN, "--server", cli.url, "auth", "login"], {
      env: cleanEnv({ XDG_CONFIG_HOME: home, ...env }),
    });
    let stderr = "";
    login.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    try {
      await expect.poll(() => stderr, { timeout: 60_000 }).toMatch(done);
    } finally {
      login.kill();
    }
    return stderr;
  }

  it("on a machine without a display, prints the address and how to sign in without a browser", async () => {
    const said = await saysUntil(
      { DISPLAY: undefined, WAYLAND_DISPLAY: undefined, BROWSER: undefined },
      /--with-token/,
    );
    expect(said).toMatch(
      /^Open this address in a browser on this machine to sign in:\n {2}http:\/\/\S+\/cli-auth\?\S+\n\(No display to open a browser on here\. Elsewhere, sign in with a token: gauntlet auth login --with-token < token\.txt\)\n/,
    );
  });

  it("while opening a browser, says what to do if none opens", async () => {
    const said = await saysUntil({ BROWSER: "true" }, /--no-browser/);
    expect(said).toMatch(
      /^Opening http:\/\/\S+\/cli-auth\?\S+ in your browser…\nNo browser opened\? Press Ctrl-C and run gauntlet auth login --no-browser to get the address, or --with-token\.\n/,
    );
  });

  it("knows when there is no browser to open", () => {
    expect(canOpenBrowser({}, "linux")).toBe(false);
    expect(canOpenBrowser({ DISPLAY: ":0" }, "linux")).toBe(true);
    expect(canOpenBrowser({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBe(true);
    expect(canOpenBrowser({ BROWSER: "w3m" }, "linux")).toBe(true);
    expect(canOpenBrowser({}, "darwin")).toBe(true);
  });
});

describe("signed in as", () => {
  it("names an admin as admin, a user as user", async () => {
    const admin = await auth(["login", "--with-token"], { input: `${cli.server.adminToken}\n` });
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stderr).toMatch(/^Signed in to \S+ as \S+ \(admin\)\.\n$/);
    const user = await auth(["login", "--with-token"], { input: `${cli.token}\n` });
    expect(user.stderr).toBe(`Signed in to ${cli.url} as ${email} (user).\n`);
  });
});
