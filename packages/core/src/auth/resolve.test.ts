import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { saveCredential } from "./credentials.ts";
import { resolveServer, resolveToken } from "./resolve.ts";
import { InvalidServerUrlError, normalizeServerUrl } from "./server-url.ts";

let root: string;
let base: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "gauntlet-resolve-"));
  base = { XDG_CONFIG_HOME: root };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("normalizeServerUrl", () => {
  it("keeps the base path and drops trailing slashes and letter case of the host", () => {
    expect(normalizeServerUrl(" https://Data.Example.com/observatory/ ")).toBe(
      "https://data.example.com/observatory",
    );
    expect(normalizeServerUrl("http://localhost:8787")).toBe("http://localhost:8787");
  });
  it("rejects what cannot be a server address", () => {
    expect(() => normalizeServerUrl("data.example.com")).toThrow(InvalidServerUrlError);
    expect(() => normalizeServerUrl("ftp://x.example")).toThrow(/http or https/);
    expect(() => normalizeServerUrl("https://u:p@x.example")).toThrow(/user name/);
    expect(() => normalizeServerUrl("https://x.example/?a=1")).toThrow(/query/);
  });
});

describe("resolveServer", () => {
  it("prefers the explicit option, then GAUNTLET_SERVER, then the server of the last login", () => {
    saveCredential("https://saved.example", { token: "t" }, { env: base });
    const env = { ...base, GAUNTLET_SERVER: "https://env.example/" };
    expect(resolveServer({ explicit: "https://explicit.example", env })).toEqual({
      url: "https://explicit.example",
      source: "explicit",
    });
    expect(resolveServer({ env })).toEqual({ url: "https://env.example", source: "env" });
    expect(resolveServer({ env: base })).toEqual({
      url: "https://saved.example",
      source: "credentials",
    });
    expect(resolveServer({ env: base, useSavedCredentials: false })).toBeNull();
  });
  it("returns null when nothing is configured: there is no built-in host", () => {
    expect(resolveServer({ env: base })).toBeNull();
    expect(resolveServer({ env: { ...base, GAUNTLET_SERVER: "  " } })).toBeNull();
  });
});

describe("resolveToken", () => {
  it("prefers the explicit token, then GAUNTLET_TOKEN, then the token saved for that server", () => {
    saveCredential("https://a.example", { token: "saved-a" }, { env: base });
    saveCredential("https://b.example", { token: "saved-b" }, { env: base });
    const env = { ...base, GAUNTLET_TOKEN: "from-env" };
    expect(resolveToken({ server: "https://a.example", explicit: "given", env })).toEqual({
      token: "given",
      source: "explicit",
    });
    expect(resolveToken({ server: "https://a.example", env })).toEqual({
      token: "from-env",
      source: "env",
    });
    expect(resolveToken({ server: "https://a.example/", env: base })).toEqual({
      token: "saved-a",
      source: "credentials",
    });
    expect(resolveToken({ server: "https://b.example", env: base })).toEqual({
      token: "saved-b",
      source: "credentials",
    });
    expect(resolveToken({ server: "https://c.example", env: base })).toBeNull();
  });
  it("treats an explicit null as anonymous, ignoring the environment and saved tokens", () => {
    saveCredential("https://a.example", { token: "saved-a" }, { env: base });
    expect(
      resolveToken({
        server: "https://a.example",
        explicit: null,
        env: { ...base, GAUNTLET_TOKEN: "e" },
      }),
    ).toBeNull();
  });
});
