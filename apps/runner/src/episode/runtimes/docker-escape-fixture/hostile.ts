// A hostile runnable for the docker escape suite. It tries what a competitor who wants to win by
// any means would, and prints one line per attempt: `ESCAPE <attempt>: <what happened>`; the test
// asserts on those lines. HOSTILE_ROLE picks what it is:
// - `player`: every attempt, then it plays GridRush as the random baseline;
// - `game`: every attempt, then a game that answers /healthz, writes valid results and leaves
//   its replay as a symbolic link to a file of the runner's host;
// - `memory`: allocates until its memory limit ends it;
// - `hang`: a game that answers /healthz and never ends;
// - `inodes`: a game that answers /healthz and makes empty files in /episode until it is ended;
// - `spin`: a player that burns CPU until its CPU time limit ends it;
// - `commissioner`: every attempt, then a commissioner that answers /healthz and has no /round.
// A player also listens on PEER_PORT and looks for other players there (`peers`).
// Targets come from HOSTILE_TARGETS: {read: [paths], connect: ["host:port"]}.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect, createServer as createTcpServer } from "node:net";
import { networkInterfaces } from "node:os";
import { fileURLToPath } from "node:url";

const role = process.env.HOSTILE_ROLE ?? "player";
const targets = JSON.parse(process.env.HOSTILE_TARGETS ?? "{}") as {
  read?: string[];
  connect?: string[];
};
const report = (attempt: string, result: string) => console.log(`ESCAPE ${attempt}: ${result}`);
const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

function tryRead(path: string): void {
  try {
    report(`read ${path}`, `READ ${readFileSync(path).length} bytes`);
  } catch (error) {
    report(`read ${path}`, code(error));
  }
}

function tryConnect(target: string): Promise<void> {
  const at = target.lastIndexOf(":");
  return new Promise((resolve) => {
    const socket = connect(Number(target.slice(at + 1)), target.slice(0, at));
    const done = (result: string) => {
      report(`connect ${target}`, result);
      socket.destroy();
      resolve();
    };
    socket.setTimeout(2_000, () => done("TIMEOUT"));
    socket.once("connect", () => done("CONNECTED"));
    socket.once("error", (error) => done(code(error)));
  });
}

function tryWrite(path: string): void {
  try {
    writeFileSync(path, "hostile");
    report(`write ${path}`, "WROTE");
  } catch (error) {
    report(`write ${path}`, code(error));
  }
}

/** Fills the scratch /tmp until the file system refuses. */
function fillScratch(): void {
  const chunk = Buffer.alloc(1 << 20, 7);
  let mib = 0;
  try {
    for (; mib < 4096; mib++) writeFileSync("/tmp/fill", chunk, { flag: mib === 0 ? "w" : "a" });
    report("fill scratch", `WROTE ${mib} MiB`);
  } catch (error) {
    report("fill scratch", `${code(error)} after ${mib} MiB`);
  }
  rmSync("/tmp/fill", { force: true });
}

/** Starts processes that stay until the kernel refuses another. */
async function forkBomb(): Promise<void> {
  const children: ChildProcess[] = [];
  let refused = "none refused";
  for (let i = 0; i < 400; i++) {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      stdio: "ignore",
    });
    const failure = await new Promise<string | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", (error) => resolve(code(error)));
    });
    if (failure !== null) {
      refused = `${failure} after ${children.length} processes`;
      break;
    }
    children.push(child);
  }
  report("fork bomb", refused);
  for (const child of children) child.kill("SIGKILL");
}

function tryPrivileges(): void {
  report("uid", String(process.getuid?.()));
  try {
    process.setuid?.(0);
    report("setuid 0", "BECAME ROOT");
  } catch (error) {
    report("setuid 0", code(error));
  }
}

async function tryUploads(): Promise<void> {
  const own = process.env.COWORLD_PLAYER_ARTIFACT_UPLOAD_URL;
  if (own === undefined) return report("upload", "no address");
  const put = async (url: string) => {
    try {
      const response = await fetch(url, { method: "PUT", body: `artifact of ${own}` });
      return String(response.status);
    } catch (error) {
      return code((error as { cause?: unknown }).cause ?? error);
    }
  };
  report("upload own", await put(own));
  // Another seat's address: the same path with the other slot, and our own key.
  report("upload other seat", await put(own.replace(/\/artifacts\/(\d+)\//, "/artifacts/1/")));
}

const PEER_PORT = 7000;

/** Listens where another hostile player would look, for as long as this one runs. */
function listenForPeers(): void {
  createTcpServer((socket) => socket.end("peer\n"))
    .on("error", () => {})
    .listen(PEER_PORT, "0.0.0.0");
}

/** The neighbours of each of its own addresses (an engine hands them out in order), on PEER_PORT:
 * which answered, a few times over, so that a player started later is found too. */
async function findPeers(): Promise<void> {
  const own = Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && i.family === "IPv4" && !i.internal ? [i.address] : []));
  const candidates = own.flatMap((address) => {
    const prefix = address.split(".").slice(0, 3).join(".");
    return Array.from({ length: 30 }, (_, n) => `${prefix}.${n + 1}`).filter((a) => a !== address);
  });
  const found = new Set<string>();
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      candidates.map(
        (host) =>
          new Promise<void>((resolve) => {
            const socket = connect(PEER_PORT, host);
            const done = () => {
              socket.destroy();
              resolve();
            };
            socket.setTimeout(1_000, done);
            socket.once("connect", () => {
              found.add(host);
              done();
            });
            socket.once("error", done);
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  report("peers", found.size === 0 ? "none" : [...found].sort().join(","));
}

async function everything(): Promise<void> {
  report("env names", Object.keys(process.env).sort().join(","));
  for (const path of [
    "/var/run/docker.sock",
    "/proc/1/environ",
    "/etc/shadow",
    ...(targets.read ?? []),
  ])
    tryRead(path);
  await Promise.all((targets.connect ?? []).map(tryConnect));
  for (const path of ["/hostile", "/coworld/hostile", "/home/gauntlet/hostile"]) tryWrite(path);
  fillScratch();
  await forkBomb();
  tryPrivileges();
  await tryUploads();
}

function healthz(): void {
  createServer((req, res) => {
    res.writeHead(req.url === "/healthz" ? 200 : 404);
    res.end();
  }).listen(Number(process.env.COGAME_PORT ?? "8080"), process.env.COGAME_HOST ?? "0.0.0.0");
}

const path = (name: string) => fileURLToPath(process.env[name] ?? "file:///nonexistent");

if (role === "memory") {
  const kept: Buffer[] = [];
  for (;;) {
    kept.push(Buffer.alloc(16 << 20, 1));
    if (kept.length % 4 === 0) console.log(`ESCAPE memory: holding ${kept.length * 16} MiB`);
  }
} else if (role === "spin") {
  console.log("ESCAPE spin: burning CPU");
  for (;;) Math.sqrt(Math.random());
} else if (role === "hang") {
  healthz();
  report("hang", "answering /healthz, never ending");
} else if (role === "inodes") {
  // No bytes, every file an inode of the runner's disk.
  healthz();
  report("inodes", "making empty files in /episode");
  for (let i = 0; i < 100_000; i += 1) {
    writeFileSync(`/episode/empty-${i}`, "");
    if (i % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 60_000));
} else if (role === "commissioner") {
  await everything();
  healthz();
} else if (role === "game") {
  healthz();
  const episode = statSync("/episode");
  report("episode dir", `${(episode.mode & 0o777).toString(8)} owned by ${episode.uid}`);
  await everything();
  const secret = targets.read?.[0] ?? "/etc/hostname";
  symlinkSync(secret, path("COGAME_SAVE_REPLAY_URI"));
  writeFileSync(
    path("COGAME_RESULTS_URI"),
    JSON.stringify({ scores: [0, 0], winner_slot: null, turns: 1, seed: 0 }),
  );
  report("replay", `a symbolic link to ${secret}`);
  process.exit(0);
} else {
  listenForPeers();
  await everything();
  await findPeers();
  // The image is GridRush's: having failed at everything, it plays fair.
  const randomPlayer = "/coworld/players/random.ts";
  await import(randomPlayer);
}
