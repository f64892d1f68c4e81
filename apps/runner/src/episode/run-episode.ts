// Runs one episode by the coworld runtime contract (docs/runtime.md, "One episode"): config, game,
// health, players, the game's exit, then its results or its player-failure declaration, the
// replay and the logs. Every process it starts is ended before it returns, whatever happened.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import type { ValidateFunction } from "ajv";

import { cpusOf, settled, type CoworldManifest } from "@gauntlet/core";

import {
  DEFAULT_ARTIFACT_MAX_BYTES,
  startArtifactReceiver,
  type ArtifactReceiver,
} from "./artifact-receiver.ts";
import { episodeCpu, runnerLoad, sampleHost } from "./cpu-report.ts";
import { clearOutputs, FILE_NAMES, readReplay } from "./episode-files.ts";
import {
  breachVerdict,
  describeExit,
  failed,
  haltOn,
  haltVerdict,
  judge,
  logTail,
  overtimeVerdict,
  platformTimeout,
  portTaken,
  type Breach,
  type Verdict,
} from "./episode-verdicts.ts";
import { buildGameConfig } from "./game-config.ts";
import { waitHealthy } from "./game-health.ts";
import { compileSchema } from "./json-schema.ts";
import { readStateOutputs, writeStateInputs } from "./player-state-files.ts";
import { dockerRuntime } from "./runtimes/docker.ts";
import { DEFAULT_CPUS, DEFAULT_LIMITS } from "./runtimes/limits.ts";
import { delay, processRuntime, within } from "./runtimes/process.ts";
import type { RunnableSpec, Runtime, StartedRunnable } from "./runtimes/runtime.ts";
import { sandboxRuntime } from "./runtimes/sandbox.ts";
import { startSeatTap, type SeatTap } from "./seat-tap.ts";
import {
  EpisodeInputError,
  type EpisodeEvent,
  type EpisodeOutcome,
  type RunEpisodeInput,
} from "./types.ts";

const DEFAULTS = {
  healthTimeoutMs: 15_000,
  playerGraceMs: 1_000,
  killGraceMs: 500,
  logCapBytes: 1 << 20,
};
/** A player's wall clock unless the runner says otherwise: 10 minutes, as its CPU time. */
export const DEFAULT_SEAT_WALL_CLOCK_MS = 600_000;

export async function runEpisode(input: RunEpisodeInput): Promise<EpisodeOutcome> {
  const t0 = performance.now();
  const settings = {
    healthTimeoutMs: input.healthTimeoutMs ?? DEFAULTS.healthTimeoutMs,
    playerGraceMs: input.playerGraceMs ?? DEFAULTS.playerGraceMs,
    killGraceMs: input.killGraceMs ?? DEFAULTS.killGraceMs,
    logCapBytes: input.logCapBytes ?? DEFAULTS.logCapBytes,
    seatWallClockMs: input.seatWallClockMs ?? DEFAULT_SEAT_WALL_CLOCK_MS,
  };
  const emit = (event: EpisodeEvent) => {
    try {
      input.onEvent?.(event);
    } catch {
      // The caller's logging must not break the episode.
    }
  };

  // Input checks first: nothing is started for an episode that cannot be.
  const runtimeOptions = { logCapBytes: settings.logCapBytes, killGraceMs: settings.killGraceMs };
  // Every runnable gets the same CPU cap: the coworld's, else the runner's (none unsandboxed).
  const cap =
    input.runtime === "process"
      ? null
      : (manifestCpus(input.manifest) ??
        (input.runtime === "docker"
          ? (input.containerLimits?.cpus ?? null)
          : (input.limits?.cpus ?? DEFAULT_CPUS)));
  const runtime: Runtime =
    input.runtime === "docker"
      ? dockerRuntime({
          ...runtimeOptions,
          limits: { ...input.containerLimits, ...(cap === null ? {} : { cpus: cap }) },
        })
      : input.runtime === "process"
        ? processRuntime(runtimeOptions)
        : sandboxRuntime({
            ...runtimeOptions,
            limits: { ...(input.limits ?? DEFAULT_LIMITS), cpus: cap ?? DEFAULT_CPUS },
          });
  // The runner's own programs (a human seat's relay) run beside it, not in the episode's runtime.
  const ownRuntime: Runtime = processRuntime(runtimeOptions);
  const runtimeOf = (slot: number): Runtime =>
    input.players[slot]?.runnersOwn === true ? ownRuntime : runtime;
  const gameRunnable = input.manifest.game.runnable;
  const playerRunnables = input.players.map((p) => ({
    run: p.runnable.run ?? undefined,
    image: p.runnable.image ?? undefined,
    env: p.runnable.env ?? {},
  }));
  const unusable = [
    runtime.unusable(gameRunnable),
    ...playerRunnables.map((r, slot) => runtimeOf(slot).unusable(r)),
  ];
  unusable.forEach((problem, index) => {
    if (problem !== null)
      throw new EpisodeInputError(
        `${index === 0 ? "the game" : `the player in slot ${index - 1}`}: ${problem}`,
      );
  });
  const { config, tokens } = buildGameConfig(input.manifest, input.gameConfig, input.players);
  let validateResults: ValidateFunction;
  try {
    validateResults = compileSchema(input.manifest.game.results_schema);
  } catch (error) {
    throw new EpisodeInputError(`the results schema does not compile: ${(error as Error).message}`);
  }

  const halt = haltOn(input.deadlineMs, input.signal);
  const game: { runnable: StartedRunnable | null } = { runnable: null };
  const players: (StartedRunnable | null)[] = input.players.map(() => null);
  // Player artifacts: on the runner's loopback, or where the runtime's layout says. A sandbox
  // reaches its own slot's address only, through a socket of its own.
  const artifactMaxBytes = input.artifactMaxBytes ?? DEFAULT_ARTIFACT_MAX_BYTES;
  const uploads: { receiver: ArtifactReceiver | null; kept: (Buffer | null)[] } = {
    receiver: null,
    kept: input.players.map(() => null),
  };
  const marks = { started: t0, healthy: t0, ended: t0 };
  const seatClocks: NodeJS.Timeout[] = [];
  const taps: (SeatTap | undefined)[] = input.players.map(() => undefined);
  /** When a seat last sent the game anything; undefined where the runner cannot tell (docker). */
  const heardFrom = (slot: number): number | null | undefined => {
    const tap = taps[slot];
    if (tap) return tap.lastHeard();
    return players[slot]?.lastHeard?.();
  };

  // The first runnable to run into a limit ends the episode, blamed on its seat.
  let onBreach: (breach: Breach) => void = () => {};
  const breached = new Promise<Breach>((resolve) => (onBreach = resolve));
  const start = async (
    spec: RunnableSpec,
    slot: number | null,
    where: Runtime = runtime,
  ): Promise<StartedRunnable> => {
    const started = await where.start(spec);
    void started.limitHit?.then((hit) => onBreach({ type: "limit", hit, slot }));
    emit({
      type: "started",
      runnable: spec.name,
      pid: started.pid,
      argv: spec.run ?? [spec.image ?? ""],
      env_names: Object.keys(spec.env).sort(),
    });
    void started.exited.then((status) => emit({ type: "exited", runnable: spec.name, ...status }));
    return started;
  };

  // Players started held (runtime.holds), and the word that lets them run or ends them.
  const held: Promise<void>[] = [];
  const release: { go: (go: boolean) => void } = { go: () => {} };
  const play = async (): Promise<Verdict> => {
    const early = halt.reason();
    if (early) return haltVerdict(early, input.deadlineMs);
    await clearOutputs(input.workDir);
    const layout = await runtime.layout(input.workDir);
    await writeFile(join(input.workDir, FILE_NAMES.config), JSON.stringify(config));
    const uri = (name: string) => pathToFileURL(join(layout.workDirForGame, name)).href;
    const gameEnv: Record<string, string> = {
      ...gameRunnable.env,
      ...input.secrets,
      COGAME_HOST: layout.gameHost,
      COGAME_PORT: String(layout.gamePort),
      COGAME_CONFIG_URI: uri(FILE_NAMES.config),
      COGAME_RESULTS_URI: uri(FILE_NAMES.results),
      COGAME_SAVE_REPLAY_URI: uri(FILE_NAMES.replay),
      COGAME_PLAYER_FAILURE_URI: uri(FILE_NAMES.failure),
      ...(await writeStateInputs(input.workDir, input.playerState, uri)),
    };
    const receiver =
      artifactMaxBytes > 0 && (input.runtime !== "docker" || layout.artifacts)
        ? await startArtifactReceiver(input.players.length, artifactMaxBytes, layout.artifacts)
        : null;
    uploads.receiver = receiver;
    // Where the runner itself reaches the game: the base of a runner's own program's address
    // (a human seat's relay), known once the game has started.
    const toGame = { fromRunner: "" };
    const isOwn = (slot: number) => input.players[slot]?.runnersOwn === true;
    // On the process runtime each seat reaches the game through a tap of its own, which notes
    // when it last sent anything (the sandbox's pipe does so itself).
    if (input.runtime === "process")
      for (const slot of input.players.keys())
        if (!isOwn(slot)) taps[slot] = await startSeatTap(layout.gameHost, layout.gamePort);
    const baseUrlOf = (slot: number) => {
      const tap = taps[slot];
      return tap ? `ws://127.0.0.1:${tap.port}` : layout.playerBaseUrl;
    };
    const playerSpec = (slot: number): RunnableSpec => {
      const player = input.players[slot];
      const own = isOwn(slot);
      const runnable = playerRunnables[slot] ?? { run: undefined, image: undefined, env: {} };
      const upload: Record<string, string> =
        receiver && !own ? { COWORLD_PLAYER_ARTIFACT_UPLOAD_URL: receiver.urlFor(slot) } : {};
      const query = new URLSearchParams({ slot: String(slot), token: tokens[slot] ?? "" });
      for (const [key, value] of Object.entries(player?.query ?? {})) query.set(key, String(value));
      return {
        name: `player-${slot}`,
        run: runnable.run,
        image: runnable.image,
        cwd: player?.cwd ?? "",
        identity: player?.identity,
        env: {
          ...runnable.env,
          ...player?.env,
          ...upload,
          COWORLD_PLAYER_WS_URL: `${own ? toGame.fromRunner : baseUrlOf(slot)}/player?${query.toString()}`,
        },
        mountsWorkDir: false,
        reach: receiver && !own ? [receiver.addressOf(slot)] : [],
      };
    };

    const gameProcess = await start(
      {
        name: "game",
        run: gameRunnable.run,
        image: gameRunnable.image,
        cwd: input.coworldDir,
        identity: input.gameIdentity,
        env: gameEnv,
        mountsWorkDir: true,
      },
      null,
    );
    game.runnable = gameProcess;
    marks.started = performance.now();
    // A runtime that holds (the sandbox) makes the players' boxes while the game boots; their
    // programs start once it is healthy, as on every runtime.
    if (runtime.holds === true) {
      const go = new Promise<boolean>((resolve) => (release.go = resolve));
      for (const slot of input.players.keys())
        if (!isOwn(slot))
          held.push(
            start({ ...playerSpec(slot), hold: go }, slot).then((player) => {
              players[slot] = player;
            }),
          );
      // Awaited once the game is healthy, or settled in the end: never unhandled meanwhile.
      for (const started of held) void settled(started);
    }

    const health = await Promise.race([
      waitHealthy(
        runtime,
        gameProcess,
        Math.min(settings.healthTimeoutMs, input.deadlineMs),
        halt,
        input.deadlineMs,
      ),
      breached,
    ]);
    if (health !== "healthy") return "type" in health ? breachVerdict(health) : health;
    marks.healthy = performance.now();
    emit({ type: "healthy", after_ms: Math.round(marks.healthy - marks.started) });

    if (held.length > 0) {
      release.go(true);
      await Promise.all(held);
    }
    // The game's address from the runner exists once it is healthy (docker's socket appears then).
    if (input.players.some((p) => p.runnersOwn === true))
      toGame.fromRunner = (await runtime.gameUrl(gameProcess)).replace(/^http/, "ws");
    // The rest start now: every player on a runtime that does not hold, and the runner's own.
    for (const slot of input.players.keys())
      if (players[slot] === null)
        players[slot] = await start(playerSpec(slot), slot, runtimeOf(slot));

    // A player that a limit of the runtime ended (its memory) ends the episode, blamed on its seat.
    const tripped = new Promise<Verdict>((resolve) =>
      players.forEach(
        (player, slot) =>
          void player?.exited.then((status) => {
            if (status.limit === "out_of_memory")
              resolve(
                failed(
                  "out_of_memory",
                  `the player in slot ${slot} went over its memory limit`,
                  slot,
                ),
              );
          }),
      ),
    );
    // A player that quits while the game runs (a missing file, a crash before it connects) ends
    // the episode at once, blamed on its seat, with its exit and its log's last lines — not
    // when the game gives up waiting for it. A game that ends within the grace judges instead.
    const quit = new Promise<Verdict>((resolve) =>
      players.forEach(
        (player, slot) =>
          void player?.exited.then(async (status) => {
            const clean = status.code === 0 && status.signal === null && status.error === undefined;
            if (clean || status.limit === "out_of_memory") return;
            const gameEnded = await Promise.race([
              gameProcess.exited.then(() => true),
              delay(settings.playerGraceMs).then(() => false),
            ]);
            if (gameEnded) return;
            resolve(
              failed(
                "player_failure",
                `the player in slot ${slot} ${describeExit(status)} while the game was running; the last lines of its log:\n${logTail(player.log())}`,
                slot,
              ),
            );
          }),
      ),
    );
    // A player still running past its wall clock (one that only waits, and the game with it)
    // ends the episode, blamed on its seat. A person's seat sets the pace: no clock then.
    const overtime = new Promise<Verdict>((resolve) => {
      const limitMs = settings.seatWallClockMs;
      if (limitMs <= 0 || input.players.some((p) => p.runnersOwn === true)) return;
      const running = new Set<number>();
      players.forEach((player, slot) => {
        if (player === null) return;
        running.add(slot);
        const clock = setTimeout(
          () => resolve(overtimeVerdict([...running], limitMs, (s) => heardFrom(s))),
          Math.min(limitMs, 2 ** 31 - 1),
        );
        seatClocks.push(clock);
        void player.exited.then(() => {
          running.delete(slot);
          clearTimeout(clock);
        });
      });
    });
    const end = await Promise.race([
      gameProcess.exited,
      halt.reached,
      tripped,
      quit,
      breached,
      overtime,
    ]);
    marks.ended = performance.now();
    if (end === "timeout" || end === "cancelled") return haltVerdict(end, input.deadlineMs);
    if ("status" in end) return end;
    if ("type" in end) return breachVerdict(end);
    if (end.limit === "out_of_memory")
      return failed("out_of_memory", "the game went over its memory limit");
    // Players normally leave when the game closes their sockets; those that linger are stopped
    // below.
    await within(
      Promise.all(players.flatMap((p) => (p ? [p.exited] : []))),
      settings.playerGraceMs,
    );
    // A limit hit in the game's last moments still counts (the monitor polls).
    const late = await Promise.race([breached, delay(0).then(() => null)]);
    if (late !== null) return breachVerdict(late);
    return judge(input.workDir, end, validateResults, input.players.length);
  };

  let verdict: Verdict;
  const hostFrom = sampleHost();
  let hostTo: ReturnType<typeof sampleHost>;
  try {
    verdict = portTaken(input.runtime, await play(), () => game.runnable?.log() ?? "");
    hostTo = sampleHost();
  } finally {
    for (const clock of seatClocks) clearTimeout(clock);
    // Held players the episode never reached end unstarted; all are stopped below.
    release.go(false);
    await Promise.allSettled(held);
    const all = [game.runnable, ...players];
    const names = ["game", ...players.map((_, slot) => `player-${slot}`)];
    await Promise.all(
      all.map(async (runnable, index) => {
        if (runnable === null) return;
        await runnable.stop();
        emit({ type: "stopped", runnable: names[index] ?? "?", pid: runnable.pid });
      }),
    );
    await runtime
      .dispose()
      .catch((error: unknown) =>
        emit({ type: "note", message: `cleanup: ${(error as Error).message}` }),
      );
    // Every seat has ended: what each uploaded is final.
    if (uploads.receiver !== null) {
      uploads.kept = await uploads.receiver.artifacts();
      await uploads.receiver.close();
    }
    await Promise.all(taps.flatMap((tap) => (tap ? [tap.close()] : [])));
    halt.dispose();
  }

  // Read once every runnable has exited (above): their groups have counted all they used.
  const load = runnerLoad(hostFrom, hostTo);
  const seatUsage = players.map((p) => p?.cpuUsage?.() ?? null);
  const cpu = episodeCpu({
    game: game.runnable?.cpuUsage?.(),
    seats: seatUsage,
    cap,
    load,
    unmeasured:
      input.runtime === "sandbox" ? null : `the ${input.runtime} runtime does not count CPU time`,
  });
  verdict = platformTimeout(verdict, load, seatUsage, cap, settings.seatWallClockMs / 1000);
  const { replay, note } = await readReplay(input.workDir);
  if (note !== undefined) emit({ type: "note", message: note });
  const now = performance.now();
  const timings = {
    startMs: Math.round(marks.started - t0),
    healthyMs: Math.round(Math.max(0, marks.healthy - marks.started)),
    gameMs: Math.round(Math.max(0, marks.ended - marks.healthy)),
    totalMs: Math.round(now - t0),
  };
  const artifacts = {
    replay,
    gameLog: game.runnable?.log() ?? "",
    playerLogs: players.map((p) => p?.log() ?? ""),
    playerArtifacts: uploads.kept,
    playerStates: await readStateOutputs(input.workDir, input.playerState, input.players.length),
    timings,
    cpu,
  };
  emit({
    type: "outcome",
    status: verdict.status,
    ...(verdict.status === "failed" ? { error_type: verdict.error_type } : {}),
    total_ms: timings.totalMs,
  });
  return { ...verdict, ...artifacts };
}

/** The CPU cap the coworld gives its players (the least where they differ), or null. */
function manifestCpus(manifest: CoworldManifest): number | null {
  const caps = manifest.player.flatMap((p) => {
    const cpus = cpusOf(p.resources);
    return cpus === null ? [] : [cpus];
  });
  return caps.length === 0 ? null : Math.min(...caps);
}
