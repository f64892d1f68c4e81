// What the runner reads of the game's outputs: regular files only. A game that writes its work
// directory (the docker runtime mounts it) must not make the runner read a host file or hang.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { newWorkDir, removeWorkDirs } from "../../testing/episodes.ts";
import { FILE_NAMES, readReplay, readResults } from "./episode-files.ts";
import { compileSchema } from "./json-schema.ts";

afterEach(removeWorkDirs);

const validate = compileSchema({ type: "object" });

describe("the game's outputs", () => {
  it("reads a regular replay and results", async () => {
    const dir = newWorkDir();
    writeFileSync(join(dir, FILE_NAMES.replay), "line\n");
    writeFileSync(join(dir, FILE_NAMES.results), JSON.stringify({ scores: [1, 2] }));
    expect((await readReplay(dir)).replay?.toString()).toBe("line\n");
    expect(await readResults(dir, validate, 2)).toEqual({
      found: true,
      ok: true,
      value: { scores: [1, 2] },
    });
  });

  it("does not follow a symbolic link the game left to a file of the host", async () => {
    const dir = newWorkDir();
    const secret = join(newWorkDir(), "secret.key");
    writeFileSync(secret, JSON.stringify({ scores: [0, 99] }));
    symlinkSync(secret, join(dir, FILE_NAMES.replay));
    symlinkSync(secret, join(dir, FILE_NAMES.results));
    expect((await readReplay(dir)).replay).toBeNull();
    expect(await readResults(dir, validate, 2)).toEqual({ found: false });
  });

  it("does not wait on a FIFO or read a directory in place of a file", async () => {
    const dir = newWorkDir();
    execFileSync("mkfifo", [join(dir, FILE_NAMES.replay)]);
    mkdirSync(join(dir, FILE_NAMES.results));
    expect((await readReplay(dir)).replay).toBeNull();
    expect(await readResults(dir, validate, 2)).toEqual({ found: false });
  });
});
