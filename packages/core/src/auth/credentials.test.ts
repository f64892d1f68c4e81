import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { configDir, credentialsPath } from "./config-dir.ts";
import {
  CredentialsFileError,
  loadCredentials,
  loadSavedToken,
  removeCredential,
  saveCredential,
} from "./credentials.ts";

let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "gauntlet-cred-"));
  env = { XDG_CONFIG_HOME: join(root, "xdg") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("config directory", () => {
  it("uses $XDG_CONFIG_HOME/gauntlet when set, else ~/.config/gauntlet", () => {
    expect(configDir({ env: { XDG_CONFIG_HOME: "/x/conf" }, home: "/home/u" })).toBe(
      "/x/conf/gauntlet",
    );
    expect(configDir({ env: {}, home: "/home/u" })).toBe("/home/u/.config/gauntlet");
    // A relative XDG value is invalid by the XDG spec and ignored.
    expect(configDir({ env: { XDG_CONFIG_HOME: "rel" }, home: "/home/u" })).toBe(
      "/home/u/.config/gauntlet",
    );
    expect(credentialsPath({ env: {}, home: "/home/u" })).toBe(
      "/home/u/.config/gauntlet/credentials.json",
    );
  });
});

describe("saved credentials", () => {
  it("reads an absent file as no credentials", () => {
    expect(loadCredentials({ env })).toEqual({ version: 1, default_server: null, servers: {} });
    expect(loadSavedToken("https://g.example", { env })).toBeNull();
  });

  it("saves a token keyed by the normalized server URL, in a 0600 file inside a 0700 directory", () => {
    const key = saveCredential(
      "HTTPS://G.Example/observatory/",
      { token: "tok-1", user_email: "a@b.c" },
      { env, now: () => new Date("2025-01-02T03:04:05Z") },
    );
    expect(key).toBe("https://g.example/observatory");
    const path = credentialsPath({ env });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, "xdg", "gauntlet")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      version: 1,
      default_server: "https://g.example/observatory",
      servers: {
        "https://g.example/observatory": {
          token: "tok-1",
          user_email: "a@b.c",
          saved_at: "2025-01-02T03:04:05.000Z",
        },
      },
    });
    expect(loadSavedToken("https://g.example/observatory", { env })?.token).toBe("tok-1");
    // No temporary file is left beside it.
    expect(readdirSync(join(root, "xdg", "gauntlet"))).toEqual(["credentials.json"]);
  });

  it("keeps one token per server and replaces on a second login to the same server", () => {
    saveCredential("https://a.example", { token: "a1" }, { env });
    saveCredential("https://b.example", { token: "b1" }, { env, makeDefault: false });
    saveCredential("https://a.example/", { token: "a2" }, { env });
    const file = loadCredentials({ env });
    expect(Object.keys(file.servers).sort()).toEqual(["https://a.example", "https://b.example"]);
    expect(file.servers["https://a.example"]?.token).toBe("a2");
    expect(file.default_server).toBe("https://a.example");
  });

  it("restores mode 0600 when the file was loosened", () => {
    saveCredential("https://a.example", { token: "a1" }, { env });
    const path = credentialsPath({ env });
    writeFileSync(path, readFileSync(path), { mode: 0o644 });
    saveCredential("https://a.example", { token: "a2" }, { env });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("removes a server's token and clears the default that pointed at it", () => {
    saveCredential("https://a.example", { token: "a1" }, { env });
    saveCredential("https://b.example", { token: "b1" }, { env });
    expect(removeCredential("https://b.example/", { env })).toBe(true);
    expect(removeCredential("https://b.example", { env })).toBe(false);
    const file = loadCredentials({ env });
    expect(Object.keys(file.servers)).toEqual(["https://a.example"]);
    expect(file.default_server).toBeNull();
  });

  it("keeps fields written by a newer client when it rewrites the file", () => {
    const path = credentialsPath({ env });
    mkdirSync(join(root, "xdg", "gauntlet"), { recursive: true });
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        default_server: null,
        servers: {
          "https://a.example": { token: "t", saved_at: "2025-01-01T00:00:00.000Z", refresh: "r" },
        },
        theme: "dark",
      }),
    );
    saveCredential("https://b.example", { token: "b" }, { env });
    const json = JSON.parse(readFileSync(path, "utf8"));
    expect(json.theme).toBe("dark");
    expect(json.servers["https://a.example"].refresh).toBe("r");
  });

  it("reports a damaged file with its path and the field that is wrong, and leaves it alone", () => {
    const path = credentialsPath({ env });
    mkdirSync(join(root, "xdg", "gauntlet"), { recursive: true });
    writeFileSync(path, "{not json");
    expect(() => loadCredentials({ env })).toThrow(CredentialsFileError);
    expect(() => loadCredentials({ env })).toThrow(path);
    expect(() => saveCredential("https://a.example", { token: "x" }, { env })).toThrow(
      /not valid JSON/,
    );
    expect(readFileSync(path, "utf8")).toBe("{not json");
    writeFileSync(
      path,
      JSON.stringify({ version: 1, servers: { "https://a.example": { token: 5 } } }),
    );
    expect(() => loadCredentials({ env })).toThrow(/servers\.https:\/\/a\.example\.token/);
  });
});
