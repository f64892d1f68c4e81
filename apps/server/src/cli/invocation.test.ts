import { describe, expect, it } from "vitest";

import { commandFor, shellWord } from "./invocation.ts";

const server = {
  script: "gauntlet-server",
  main: "/repo/apps/server/src/cli/main.ts",
  silent: true,
};
const pnpmFromNpx = {
  npm_lifecycle_event: "start",
  npm_config_user_agent: "pnpm/10.34.9 npm/? node/v24.21.0 linux x64",
  npm_execpath: "/home/u/.npm/_npx/a1a3/node_modules/pnpm/bin/pnpm.cjs",
};

describe("the commands the server prints", () => {
  it("repeat the README's npx route for someone with no pnpm of their own", () => {
    expect(commandFor(server, pnpmFromNpx)).toBe("npx -y pnpm@10 --silent gauntlet-server");
    expect(
      commandFor({ script: "gauntlet-runner", main: "/repo/apps/runner/src/main.ts" }, pnpmFromNpx),
    ).toBe("npx -y pnpm@10 gauntlet-runner");
  });

  it("use pnpm, npm run, the installed bin or node and a path, as the server was started", () => {
    expect(
      commandFor(server, {
        ...pnpmFromNpx,
        npm_execpath: "/usr/lib/node_modules/pnpm/bin/pnpm.cjs",
      }),
    ).toBe("pnpm --silent gauntlet-server");
    expect(
      commandFor(server, {
        npm_lifecycle_event: "start",
        npm_config_user_agent: "npm/11.19.1 node/v24.21.0 linux x64",
      }),
    ).toBe("npm run --silent gauntlet-server --");
    expect(commandFor(server, {}, "/usr/local/bin/gauntlet-server")).toBe("gauntlet-server");
    expect(commandFor(server, {}, "/repo/apps/server/src/cli/main.ts", "/repo")).toBe(
      "node apps/server/src/cli/main.ts",
    );
    expect(commandFor(server, {}, "/repo/apps/server/src/cli/main.ts", "/other place")).toBe(
      "node ../repo/apps/server/src/cli/main.ts",
    );
  });

  it("name the project's own Node by its path when it ran us: the node on PATH may be too old for .ts", () => {
    const main = "/repo/apps/server/src/cli/main.ts";
    const own = "/repo/node_modules/node/bin/node";
    expect(commandFor(server, {}, main, "/repo", own)).toBe(
      "node_modules/node/bin/node apps/server/src/cli/main.ts",
    );
    expect(commandFor(server, {}, main, "/repo", "/usr/bin/node")).toBe(
      "node apps/server/src/cli/main.ts",
    );
  });

  it("quote what a shell would split", () => {
    expect(shellWord("/tmp/data")).toBe("/tmp/data");
    expect(shellWord("my data")).toBe("'my data'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});
