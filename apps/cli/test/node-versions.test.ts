// The Node versions the READMEs name are the ones the package.json files say: a newcomer read
// "Node 20 or newer" in one place and "22.12" in another. 20 is what runs `npx` (the bootstrap);
// the code's own minimum is `engines`, the same in every package, met by the pinned Node.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const engines = (path: string) =>
  (JSON.parse(read(path)) as { engines?: { node?: string } }).engines?.node;

const BOOTSTRAP = "20";

it("every package asks one Node minimum, and the pinned Node meets it", () => {
  const minimum = engines("package.json");
  expect(minimum).toMatch(/^>=\d+\.\d+$/);
  for (const pkg of ["apps/cli", "apps/tui", "packages/core", "packages/sdk"])
    expect(engines(`${pkg}/package.json`), pkg).toBe(minimum);
  const pinned = (JSON.parse(read("package.json")) as { devDependencies: { node: string } })
    .devDependencies.node;
  const [major = 0, minor = 0] = pinned.split(".").map(Number);
  const [wantMajor = 0, wantMinor = 0] = (minimum ?? "").slice(2).split(".").map(Number);
  expect(major > wantMajor || (major === wantMajor && minor >= wantMinor)).toBe(true);
});

it("the READMEs name the bootstrap Node and the engines minimum, and no other", () => {
  const minimum = (engines("package.json") ?? "").slice(2);
  for (const path of ["README.md", "apps/cli/README.md"]) {
    const text = read(path).replace(/\s+/g, " ");
    const named = [...text.matchAll(/\b(?:Node )?(\d+(?:\.\d+)?) or newer/g)].map((m) => m[1]);
    expect(named.length, path).toBeGreaterThan(0);
    for (const version of named) expect([BOOTSTRAP, minimum], path).toContain(version);
    expect(text, path).toContain(`Node ${minimum} or newer`);
  }
  expect(read("README.md").replace(/\s+/g, " ")).toContain(`Node ${BOOTSTRAP} or newer and npm`);
});
