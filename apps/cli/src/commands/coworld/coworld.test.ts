// `gauntlet coworld …` without a process: what the verbs parse their arguments into, bad input as
// one plain line and exit 2, and the output on a terminal, off one and with --json, against a real
// server on a free port. (Setting a secret reads standard input: the e2e test covers it.)
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { certifyCommand, type CertifyOptions } from "./certify.ts";
import { listCommand, type ListOptions } from "./list.ts";

const gridrush = join(import.meta.dirname, "../../../../../examples/coworlds/gridrush");

const cli = useCliServer(async (server) => {
  return server.adminToken;
});
const { gauntlet, sdk, factory } = cli;

const COWORLD = "cow_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("list and certify: their flags", async () => {
    expect(
      await parsed<ListOptions>(
        (parent, run) => listCommand(parent, factory(), run),
        ["list", "--name", "gridrush", "--canonical"],
      ),
    ).toEqual({ name: "gridrush", canonical: true, json: false });
    expect(
      await parsed<CertifyOptions>(
        (parent, run) => certifyCommand(parent, factory(), run),
        ["certify", COWORLD, "--wait", "--json"],
      ),
    ).toEqual({ coworldId: COWORLD, wait: true, json: true });
  });

  it("refuses a directory without a manifest, a manifest that is not an object, a bad id", async () => {
    const empty = mkdtempSync(join(tmpdir(), "gauntlet-coworld-"));
    expect(await gauntlet(["coworld", "upload", empty])).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: DIR: no coworld_manifest.json in '${empty}'\n`,
    });
    writeFileSync(join(empty, "coworld_manifest.json"), "[1]");
    expect(await gauntlet(["coworld", "upload", empty])).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: ${join(empty, "coworld_manifest.json")}: not a JSON object\n`,
    });
    expect(await gauntlet(["coworld", "show", "gridrush"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: COWORLD: 'gridrush' is not a valid id (expected cow_<uuid>, e.g. cow_00000000-0000-4000-8000-000000000000)\n",
    });
  });
});

describe("output", () => {
  it("uploads, lists, shows and certifies a coworld, and lists its secrets", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const uploaded = await gauntlet(["coworld", "upload", gridrush]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.stdout).toBe("");
    const [, name, id] = /^uploaded coworld (\S+) \S+ \((cow_\S+)\)\n$/.exec(uploaded.stderr) ?? [];
    expect(id).toBeDefined();

    expect(JSON.parse((await gauntlet(["coworld", "list", "--json"])).stdout)).toEqual(
      await sdk().coworlds.list(),
    );
    const table = await gauntlet(["coworld", "list", "--name", name ?? ""]);
    expect(table.stdout).toMatch(
      new RegExp(
        `^ID\\s+NAME\\s+VERSION\\s+CANONICAL\\s+CREATED\\n${id}\\s+${name}\\s+\\S+\\s+(yes|no)\\s`,
      ),
    );
    const tty = await gauntlet(["coworld", "list", "--name", name ?? ""], true);
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(table.stdout);

    const shown = await gauntlet(["coworld", "show", id ?? ""]);
    expect(shown.stdout).toMatch(new RegExp(`^id:\\s+${id}\\nname:\\s+${name}\\nversion:`));
    const certified = await gauntlet(["coworld", "certify", id ?? ""]);
    expect(certified.code, certified.stderr).toBe(0);
    expect(certified.stdout).toMatch(/^\S+:\s/);
    expect(certified.stdout).toMatch(/(^|\n)state:\s+\S+\n/);

    expect(await gauntlet(["coworld", "secret", "list", name ?? ""])).toEqual({
      code: 0,
      stdout: "",
      stderr: "no secrets\n",
    });
    expect(
      JSON.parse((await gauntlet(["coworld", "secret", "list", name ?? "", "--json"])).stdout),
    ).toEqual([]);

    // The value comes on standard input only: from a terminal it is refused before any request.
    const fromTerminal = await gauntlet(["coworld", "secret", "put", name ?? "", "API_KEY"]);
    expect(fromTerminal.code).toBe(2);
    expect(fromTerminal.stderr).toMatch(
      /^gauntlet: the secret's value is read from standard input/,
    );
    const put = await gauntlet(["coworld", "secret", "put", name ?? "", "API_KEY"], {
      input: "s3cr3t\n",
    });
    expect(put).toEqual({
      code: 0,
      stdout: "",
      stderr: `saved secret API_KEY for ${name ?? ""} (7 bytes)\n`,
    });
    expect(await gauntlet(["coworld", "secret", "list", name ?? ""])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/\nAPI_KEY\s+7\n$/) as unknown,
    });
  });
});
