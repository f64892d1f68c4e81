// GridRush's player client: a person plays one seat in the browser. The page is opened with the
// game's player WebSocket address in its fragment (`#ws=<url>`, kept out of server logs); it
// speaks the player protocol of the README: welcome, turn, end from the game, move to it.
const COLORS = ["#d1495b", "#2e86ab", "#66a182", "#edae49"];
const KEYS = {
  ArrowUp: "N",
  w: "N",
  ArrowDown: "S",
  s: "S",
  ArrowLeft: "W",
  a: "W",
  ArrowRight: "E",
  d: "E",
  " ": "stay",
};

const status = document.getElementById("status");
const scores = document.getElementById("scores");
const board = document.getElementById("board");
const legend = document.getElementById("legend");
const ctx = board.getContext("2d");

const address = new URLSearchParams(location.hash.slice(1)).get("ws");
let socket = null;
let slot = null;
let turn = null;
let sentFor = null;
/** Each seat's name as the server tells it (the session's players); "seat N" until it answers. */
let names = [];
let seats = 0;
let shown = null;

/** How the page calls a seat: "you" for the person's own, else the player's name. */
const nameOf = (i) => (i === slot ? "you" : (names[i] ?? `seat ${i}`));

/** One entry of the legend: a swatch drawn as on the board (`kind` its class), and what it is. */
function legendItem(kind, color, text) {
  const item = document.createElement("li");
  const mark = document.createElement("span");
  mark.className = `swatch ${kind}`;
  if (color) mark.style.background = color;
  item.append(mark, document.createTextNode(` ${text}`));
  return item;
}

/** Which square is whose: yours (outlined in black, as on the board) first, the others, a coin. */
function drawLegend() {
  if (slot === null || seats === 0) return;
  const order = [slot, ...Array.from({ length: seats }, (_, i) => i).filter((i) => i !== slot)];
  legend.replaceChildren(
    ...order.map((i) =>
      i === slot
        ? legendItem("mine", COLORS[i % COLORS.length], "you (outlined in black)")
        : legendItem("seat", COLORS[i % COLORS.length], nameOf(i)),
    ),
    legendItem("coin", null, "a coin"),
  );
  document.body.dataset.legend = legend.textContent.replace(/\s+/g, " ").trim();
}

function draw(state) {
  shown = state;
  const cell = Math.floor(Math.min(board.width / state.width, board.height / state.height));
  ctx.clearRect(0, 0, board.width, board.height);
  ctx.strokeStyle = "#eee";
  for (let x = 0; x < state.width; x++)
    for (let y = 0; y < state.height; y++) ctx.strokeRect(x * cell, y * cell, cell, cell);
  ctx.fillStyle = "#f2c14e";
  for (const [x, y] of state.coins) {
    ctx.beginPath();
    ctx.arc(x * cell + cell / 2, y * cell + cell / 2, cell / 4, 0, 2 * Math.PI);
    ctx.fill();
  }
  state.positions.forEach(([x, y], i) => {
    ctx.fillStyle = COLORS[i % COLORS.length];
    ctx.fillRect(x * cell + 4, y * cell + 4, cell - 8, cell - 8);
    if (i === slot) {
      ctx.strokeStyle = "#000";
      ctx.lineWidth = 3;
      ctx.strokeRect(x * cell + 2, y * cell + 2, cell - 4, cell - 4);
      ctx.lineWidth = 1;
    }
  });
  scores.textContent = state.scores.map((s, i) => `${nameOf(i)}: ${s}`).join(" · ");
}

function welcomeText() {
  const others = Array.from({ length: seats }, (_, i) => i).filter((i) => i !== slot);
  return `You play against ${others.map(nameOf).join(", ")}. Waiting for the first turn…`;
}

function move(direction) {
  if (!socket || socket.readyState !== WebSocket.OPEN || turn === null) return;
  socket.send(JSON.stringify({ type: "move", turn, move: direction }));
  sentFor = turn;
  status.textContent = `Turn ${turn}: you moved ${direction}. Waiting for the others…`;
  document.body.dataset.lastMove = `${turn}:${direction}`;
}

// What the status said before the server's notice that the game's connection is being restored.
let beforeNotice = null;

function onMessage(event) {
  const message = JSON.parse(event.data);
  if (message.type === "gauntlet.connection") {
    // The server's own frame (not the game's): say it while it lasts, then put back what was there.
    if (message.state === "restoring") {
      beforeNotice ??= status.textContent;
      status.textContent = message.message;
      document.body.dataset.restoring = "true";
    } else {
      if (beforeNotice !== null && status.textContent === message.message)
        status.textContent = beforeNotice;
      beforeNotice = null;
      delete document.body.dataset.restoring;
    }
    return;
  }
  beforeNotice = null;
  if (message.type === "welcome") {
    slot = message.slot;
    seats = message.players;
    status.textContent = welcomeText();
    drawLegend();
    // Asked now, not at connect: every seat is taken once the game has started.
    void learnNames();
  } else if (message.type === "turn") {
    turn = message.turn;
    draw(message);
    if (sentFor !== turn)
      status.textContent = `Turn ${turn + 1} of ${message.turns}: your move (arrows, WASD or the buttons).`;
    document.body.dataset.turn = String(turn);
  } else if (message.type === "end") {
    turn = null;
    const won = message.winner_slot === slot;
    status.textContent = `Game over (${message.reason}): ${won ? "you won" : message.winner_slot === null ? "a tie" : `${nameOf(message.winner_slot)} won`}. Scores ${message.scores.map((s, i) => `${nameOf(i)} ${s}`).join(", ")}.`;
    document.body.dataset.ended = "true";
  }
}

if (!address) {
  status.textContent = "No game to join: open this page from a play session's join address.";
} else {
  socket = new WebSocket(address);
  socket.addEventListener("open", () => {
    status.textContent = "Connected. The game starts when every player is here…";
    document.body.dataset.connected = "true";
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", () => {
    if (document.body.dataset.ended !== "true")
      status.textContent = "The connection to the game closed.";
    void showOutcome();
  });
}

/** The seats' names from the session (a plain GET of the socket's address with its token). */
async function readSession() {
  try {
    const response = await fetch(address.replace(/^ws/, "http"));
    return response.ok ? (await response.json()).session : undefined;
  } catch {
    return undefined;
  }
}

async function learnNames() {
  const session = await readSession();
  if (!session?.players) return;
  names = session.players;
  if (slot === null) slot = session.position;
  // The welcome may have come first: say the names now if nothing else has been said since.
  if (seats > 0 && turn === null && document.body.dataset.ended !== "true")
    status.textContent = welcomeText();
  if (shown) draw(shown);
  drawLegend();
  document.body.dataset.players = names.map((_, i) => nameOf(i)).join(" · ");
}

/**
 * Once the socket has closed, the session's end as the server tells it (a plain GET of the
 * socket's address with the same token): over, its result, a link to its replay, and no move
 * buttons. The server settles the session a moment after the game ends, so this asks a few times.
 */
async function showOutcome() {
  for (let attempt = 0; attempt < 20; attempt++) {
    const session = await readSession();
    if (session && ["completed", "failed", "cancelled"].includes(session.status)) {
      renderOver(session);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function renderOver(session) {
  document.getElementById("pad").hidden = true;
  turn = null;
  if (session.players) names = session.players;
  slot = session.position;
  const you = session.position;
  let text;
  if (session.status === "completed" && session.scores) {
    const best = Math.max(...session.scores);
    const winners = session.scores.flatMap((s, i) => (s === best ? [i] : []));
    const verdict =
      winners.length > 1 ? "a tie" : winners[0] === you ? "you won" : `${nameOf(winners[0])} won`;
    text = `This game is over: ${verdict}. Scores ${session.scores.map((s, i) => `${nameOf(i)} ${s}`).join(", ")}.`;
  } else {
    const why =
      session.error_type === "player_never_connected"
        ? "a player never connected"
        : session.error || session.status;
    text = `This game is over (${session.status}): ${why}.`;
  }
  status.textContent = text;
  if (session.replay_url) {
    const link = document.createElement("a");
    link.href = session.replay_url;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "Watch the replay";
    link.id = "replay";
    status.after(link);
  }
  document.body.dataset.ended = "true";
  document.body.dataset.over = session.status;
}

document.getElementById("pad").addEventListener("click", (event) => {
  const direction = event.target instanceof HTMLElement ? event.target.dataset.move : undefined;
  if (direction) move(direction);
});
document.addEventListener("keydown", (event) => {
  const direction = KEYS[event.key];
  if (direction) {
    event.preventDefault();
    move(direction);
  }
});
