// GridRush's replay viewer: plays back an episode's replay (the JSON lines the game writes, see
// the README) turn by turn. The page is opened with the replay's address in its fragment
// (`#replay=<url>`: the service's replay session gives a short-lived capability address, so the
// page never holds a bearer token; the fragment stays out of server logs and referrers).
const COLORS = ["#d1495b", "#2e86ab", "#66a182", "#edae49"];

const status = document.getElementById("status");
const scores = document.getElementById("scores");
const players = document.getElementById("players");
const board = document.getElementById("board");
const scrub = document.getElementById("scrub");
const playButton = document.getElementById("play");
const speed = document.getElementById("speed");
const ctx = board.getContext("2d");

const params = new URLSearchParams(location.hash.slice(1));
let header = null;
let frames = [];
let ending = null;
let shown = 0;
let timer = null;

function setStatus(text) {
  status.textContent = text;
}

/** The replay's lines as frames: frame 0 is the start, frame k the state after turn k. */
function parse(text) {
  const entries = text
    .split("\n")
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, index }) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`line ${index + 1} is not JSON`);
      }
    });
  const first = entries[0];
  if (!first || first.type !== "header")
    throw new Error("it does not start with a GridRush header line");
  const start = entries.find((e) => e.type === "state");
  if (!start) throw new Error("it has no starting state");
  return {
    header: first,
    frames: [start, ...entries.filter((e) => e.type === "turn")],
    ending: entries.find((e) => e.type === "end" || e.type === "aborted") ?? null,
  };
}

function nameOf(slot) {
  return header.players?.[slot] ?? `seat ${slot}`;
}

function draw(frame) {
  const cell = Math.floor(Math.min(board.width / header.width, board.height / header.height));
  ctx.clearRect(0, 0, board.width, board.height);
  ctx.strokeStyle = "#eee";
  for (let x = 0; x < header.width; x++)
    for (let y = 0; y < header.height; y++) ctx.strokeRect(x * cell, y * cell, cell, cell);
  ctx.fillStyle = "#f2c14e";
  for (const [x, y] of frame.coins) {
    ctx.beginPath();
    ctx.arc(x * cell + cell / 2, y * cell + cell / 2, cell / 4, 0, 2 * Math.PI);
    ctx.fill();
  }
  frame.positions.forEach(([x, y], slot) => {
    ctx.fillStyle = COLORS[slot % COLORS.length];
    ctx.fillRect(x * cell + 4, y * cell + 4, cell - 8, cell - 8);
  });
}

function describe(index) {
  const last = frames.length - 1;
  if (index === 0)
    return `Start: ${header.width} × ${header.height}, ${header.coins} coins, ${header.turns} turns (seed ${header.seed}).`;
  const frame = frames[index];
  const moves = frame.moves.map((m, slot) => `${nameOf(slot)} ${m}`).join(", ");
  const scored = frame.scored.length ? ` ${frame.scored.map(nameOf).join(" and ")} scored.` : "";
  const tail = index === last && ending ? ` ${endingText()}` : "";
  return `Turn ${index} of ${last}: ${moves}.${scored}${tail}`;
}

function endingText() {
  if (ending.type === "aborted") return `The episode was aborted: ${ending.message}`;
  return ending.winner_slot === null
    ? "Game over: a tie."
    : `Game over: ${nameOf(ending.winner_slot)} won.`;
}

function show(index) {
  shown = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[shown];
  draw(frame);
  scores.textContent = frame.scores.map((s, slot) => `${nameOf(slot)}: ${s}`).join(" · ");
  scrub.value = String(shown);
  setStatus(describe(shown));
  document.body.dataset.turn = String(shown);
  if (shown === frames.length - 1) pause();
}

function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  playButton.textContent = "▶";
  document.body.dataset.playing = "false";
}

function play() {
  if (shown === frames.length - 1) show(0);
  pause();
  timer = setInterval(() => show(shown + 1), Number(speed.value));
  playButton.textContent = "‖"; // ⏸ has no glyph in Debian's default fonts (DejaVu)
  document.body.dataset.playing = "true";
}

function go(action) {
  if (!header) return;
  if (action === "first") show(0);
  else if (action === "back") show(shown - 1);
  else if (action === "forward") show(shown + 1);
  else if (action === "last") show(frames.length - 1);
  else if (action === "play") (timer === null ? play : pause)();
}

async function load(address) {
  const response = await fetch(address);
  if (!response.ok)
    throw new Error(`the replay answered ${response.status} ${response.statusText}`.trim());
  const replay = parse(await response.text());
  header = replay.header;
  frames = replay.frames;
  ending = replay.ending;
  players.replaceChildren(
    ...frames[0].positions.map((_, slot) => {
      const item = document.createElement("li");
      item.style.setProperty("--color", COLORS[slot % COLORS.length]);
      item.textContent = nameOf(slot);
      return item;
    }),
  );
  scrub.max = String(frames.length - 1);
  document.body.dataset.turns = String(frames.length - 1);
  document.body.dataset.loaded = "true";
  show(0);
}

const address = params.get("replay");
if (!address) {
  setStatus("No replay to show: open this page with #replay=<the replay's address>.");
} else {
  load(address).catch((error) => {
    setStatus(`Could not show the replay: ${error.message}.`);
    document.body.dataset.failed = "true";
  });
}

document.getElementById("controls").addEventListener("click", (event) => {
  const action = event.target instanceof HTMLElement ? event.target.dataset.go : undefined;
  if (action) go(action);
});
scrub.addEventListener("input", () => {
  pause();
  show(Number(scrub.value));
});
speed.addEventListener("change", () => {
  if (timer !== null) play();
});
document.addEventListener("keydown", (event) => {
  const action = {
    ArrowLeft: "back",
    ArrowRight: "forward",
    Home: "first",
    End: "last",
    " ": "play",
  }[event.key];
  const target = event.target instanceof HTMLElement ? event.target.tagName : "";
  // The slider and the speed list keep their own keys; a focused button keeps space (it presses it).
  if (target === "INPUT" || target === "SELECT" || (target === "BUTTON" && event.key === " "))
    return;
  if (action) {
    event.preventDefault();
    go(action);
  }
});
