import { describe, expect, it } from "vitest";

import { defaultCapacity, HelpShown, parseRunnerArgs, UsageError } from "./options.ts";

const fromEnvVars = { GAUNTLET_SERVER: "http://127.0.0.1:8787", GAUNTLET_TOKEN: "gntm_b" };

const noOutput = () => {};

describe("parseRunnerArgs", () => {
  it("takes the server and token from flags, else from GAUNTLET_SERVER and GAUNTLET_TOKEN", () => {
    const fromFlags = parseRunnerArgs(
      [
        "--server",
        "HTTP://Example.com/observatory/",
        "--token",
        "gntm_a",
        "--capacity",
        "3",
        "--interactive-capacity",
        "0",
        "--runtime",
        "docker",
        "--runner-id",
        "r1",
        "--grace-seconds",
        "2.5",
        "--container-memory-mib",
        "256",
        "--container-cpus",
        "0.5",
        "--container-cpu-seconds",
        "30",
      ],
      {},
    );
    expect(fromFlags.containerLimits).toEqual({
      memoryBytes: 256 << 20,
      pids: 128,
      cpus: 0.5,
      cpuSeconds: 30,
      scratchBytes: 64 << 20,
      outputBytes: 256 << 20,
      user: "65532:65532",
    });
    expect(fromFlags).toMatchObject({
      server: "http://example.com/observatory",
      token: "gntm_a",
      concurrency: 3,
      interactiveCapacity: 0,
      runtime: "docker",
      runnerId: "r1",
      graceMs: 2500,
      logFormat: "text",
    });
    const fromEnv = parseRunnerArgs([], {
      GAUNTLET_SERVER: "http://127.0.0.1:8787",
      GAUNTLET_TOKEN: "gntm_b",
    });
    expect(fromEnv).toMatchObject({
      server: "http://127.0.0.1:8787",
      token: "gntm_b",
      concurrency: defaultCapacity(),
      interactiveCapacity: 4,
      runtime: "sandbox",
      trustedCode: false,
      graceMs: 30_000,
    });
    expect(fromEnv.runnerId).toContain(String(process.pid));
    // Several replicas: repeated, or a comma list (the environment's too), in order, once each.
    expect(
      parseRunnerArgs(
        ["--server", "http://a:1", "--server", "http://b:2,http://c:3/", "--server", "http://a:1"],
        fromEnvVars,
      ),
    ).toMatchObject({ server: "http://a:1", servers: ["http://a:1", "http://b:2", "http://c:3"] });
    expect(
      parseRunnerArgs([], { ...fromEnvVars, GAUNTLET_SERVER: "http://a:1, http://b:2" }).servers,
    ).toEqual(["http://a:1", "http://b:2"]);
    expect(() => parseRunnerArgs(["--server", "http://a:1,ftp://x"], fromEnvVars)).toThrow(
      UsageError,
    );
    // The former flag still works.
    expect(parseRunnerArgs(["--concurrency", "5"], fromEnvVars).concurrency).toBe(5);
  });

  it("takes each player's wall clock from --seat-wall-seconds (600 s unless given; 0 for none)", () => {
    expect(parseRunnerArgs([], fromEnvVars).seatWallClockMs).toBe(600_000);
    expect(parseRunnerArgs(["--seat-wall-seconds", "45"], fromEnvVars).seatWallClockMs).toBe(
      45_000,
    );
    expect(parseRunnerArgs(["--seat-wall-seconds", "0"], fromEnvVars).seatWallClockMs).toBe(0);
    expect(() => parseRunnerArgs(["--seat-wall-seconds", "-1"], fromEnvVars, noOutput)).toThrow(
      UsageError,
    );
  });

  it("takes a capacity from the cores: one per core, at least 2, at most 8", () => {
    expect([1, 2, 6, 64].map((cores) => defaultCapacity(cores))).toEqual([2, 2, 6, 8]);
  });

  it("reads the token from standard input with --token-stdin, over the environment's", () => {
    const env = { GAUNTLET_SERVER: "http://127.0.0.1:1", GAUNTLET_TOKEN: "gntm_env" };
    const piped = parseRunnerArgs(["--token-stdin"], env, noOutput, () => "gntm_piped\n");
    expect(piped.token).toBe("gntm_piped");
    expect(() => parseRunnerArgs(["--token-stdin"], env, noOutput, () => "\n")).toThrow(
      new UsageError("--token-stdin: standard input held no token"),
    );
  });

  it.each([
    [
      ["--capacity", "0"],
      "option '--capacity <n>' argument '0' is invalid. expected a whole number from 1 to 64",
    ],
    [
      ["--capacity", "two"],
      "option '--capacity <n>' argument 'two' is invalid. expected a whole number from 1 to 64",
    ],
    [
      ["--runtime", "vm"],
      "option '--runtime <runtime>' argument 'vm' is invalid. Allowed choices are sandbox, process, docker.",
    ],
    [
      ["--runtime", "process"],
      "the process runtime runs code unsandboxed, as this runner's user: pass --trusted-code (or set GAUNTLET_RUNNER_TRUSTED=1) only if every coworld and policy it runs is trusted",
    ],
    [
      ["--container-cpus", "0"],
      "option '--container-cpus <n>' argument '0' is invalid. expected a number of CPUs from 0.01 to 256",
    ],
    [["--bogus"], "unknown option '--bogus'"],
    [["extra"], "too many arguments. Expected 0 arguments but got 1: extra."],
    [["--server", "ftp://x"], 'server URL must be http or https, got ftp: in "ftp://x"'],
  ])("refuses %j with one line", (args, message) => {
    const env = { GAUNTLET_SERVER: "http://127.0.0.1:1", GAUNTLET_TOKEN: "t" };
    expect(() => parseRunnerArgs(args, env, noOutput)).toThrow(new UsageError(message));
  });

  it("runs unsandboxed code only when told that all of it is trusted", () => {
    const env = { GAUNTLET_SERVER: "http://127.0.0.1:1", GAUNTLET_TOKEN: "t" };
    expect(parseRunnerArgs(["--runtime", "process", "--trusted-code"], env)).toMatchObject({
      runtime: "process",
      trustedCode: true,
    });
    expect(
      parseRunnerArgs(["--runtime", "process"], { ...env, GAUNTLET_RUNNER_TRUSTED: "1" }),
    ).toMatchObject({ runtime: "process", trustedCode: true });
  });

  it("takes sandbox limits and the bundle cache's cap in MB", () => {
    const env = { GAUNTLET_SERVER: "http://127.0.0.1:1", GAUNTLET_TOKEN: "t" };
    const settings = parseRunnerArgs(
      ["--sandbox-memory-mb", "256", "--sandbox-pids", "64", "--bundle-cache-mb", "100"],
      env,
    );
    expect(settings.limits).toMatchObject({ memoryBytes: 256 * 1024 * 1024, pids: 64 });
    expect(settings.bundleCacheBytes).toBe(100 * 1024 * 1024);
  });

  it("takes the log level from --log-level, else LOG_LEVEL (the server's names too), else info", () => {
    const env = { GAUNTLET_SERVER: "http://127.0.0.1:1", GAUNTLET_TOKEN: "t" };
    expect(parseRunnerArgs([], env).logLevel).toBe("info");
    expect(parseRunnerArgs(["--log-level", "warn"], { ...env, LOG_LEVEL: "debug" }).logLevel).toBe(
      "warn",
    );
    expect(parseRunnerArgs([], { ...env, LOG_LEVEL: "DEBUG" }).logLevel).toBe("debug");
    expect(parseRunnerArgs([], { ...env, LOG_LEVEL: "trace" }).logLevel).toBe("debug");
    expect(() => parseRunnerArgs([], { ...env, LOG_LEVEL: "loud" }, noOutput)).toThrow(
      new UsageError('LOG_LEVEL must be one of debug, info, warn, error, not "loud"'),
    );
    expect(() => parseRunnerArgs(["--log-level", "loud"], env, noOutput)).toThrow(
      "Allowed choices are debug, info, warn, error.",
    );
  });

  it("says what is missing when no server or token is configured", () => {
    expect(() => parseRunnerArgs([], {}, noOutput)).toThrow(
      "no server: pass --server <url> or set GAUNTLET_SERVER",
    );
    expect(() => parseRunnerArgs(["--server", "http://127.0.0.1:1"], {}, noOutput)).toThrow(
      "no token: set GAUNTLET_TOKEN (or pass --token) to a machine token",
    );
  });

  it("prints its help on --help", () => {
    let out = "";
    expect(() => parseRunnerArgs(["--help"], {}, (t) => (out += t))).toThrow(HelpShown);
    expect(out).toContain("--capacity <n>");
    expect(out).toContain("--interactive-capacity <n>");
  });
});
