// The web view's script: draws the page the address names, then reads it again whenever a live
// event arrives on one of its topics, and says in the status line whether it is live.
import { showAccount } from "./account.ts";
import { NotFound } from "./api.ts";
import { el } from "./dom.ts";
import { follow, type LiveState } from "./live.ts";
import type { Draw, Drawn } from "./page.ts";
import { drawDivision } from "./pages/division.ts";
import { drawEpisode } from "./pages/episode.ts";
import { drawHome } from "./pages/home.ts";
import { drawLeague } from "./pages/league.ts";
import { drawPlayer } from "./pages/player.ts";
import { drawPolicyVersion } from "./pages/policy-version.ts";
import { drawRound } from "./pages/round.ts";

const PAGES: Record<string, Draw> = {
  home: drawHome,
  league: drawLeague,
  division: drawDivision,
  round: drawRound,
  episode: drawEpisode,
  player: drawPlayer,
  "policy-version": drawPolicyVersion,
};

/** Events arrive in bursts (an episode, then the standings): one read after the burst. */
const SETTLE_MS = 250;

const root = document.documentElement;
const kind = root.getAttribute("data-page") ?? "home";
const subject = root.getAttribute("data-subject") ?? "";
const main = document.getElementById("page");
const crumbs = document.getElementById("crumbs");
const status = document.getElementById("status");

let state: LiveState | "still" = "connecting";
let note: string | null = null;
let followed = false;

function showStatus(problem?: string) {
  if (!status) return;
  const said =
    problem ??
    (state === "live"
      ? `live${note ? ` · ${note}` : ""}`
      : state === "reconnecting"
        ? "reconnecting…"
        : state === "still"
          ? (note ?? "")
          : `connecting…${note ? ` · ${note}` : ""}`);
  status.textContent = said;
  status.className = problem ? "error" : state === "live" ? "live" : "";
}

function show(drawn: Drawn) {
  document.title = drawn.title === "Gauntlet" ? "Gauntlet" : `${drawn.title} · Gauntlet`;
  crumbs?.replaceChildren(...drawn.crumbs.flatMap((c, i) => (i ? [" › ", c] : [c])));
  main?.replaceChildren(...drawn.body);
  if (drawn.note instanceof Promise)
    void drawn.note.then(
      (said) => {
        note = said;
        showStatus();
      },
      () => undefined,
    );
  else note = drawn.note;
  main?.setAttribute("data-drawn", String(Date.now()));
}

let drawing = false;
let again = false;
async function draw(): Promise<void> {
  const page = PAGES[kind];
  if (!page) return;
  if (drawing) {
    again = true;
    return;
  }
  drawing = true;
  try {
    const drawn = await page(subject);
    show(drawn);
    if (!followed) {
      followed = true;
      if (drawn.topics.length === 0) state = "still";
      follow(drawn.topics, {
        onEvent: () => schedule(),
        onState: (s) => {
          // Back after a drop: read the page again (the events missed are replayed too).
          if (s === "live" && state === "reconnecting") schedule();
          state = s;
          showStatus();
        },
      });
    }
    showStatus();
  } catch (error) {
    if (error instanceof NotFound) {
      main?.replaceChildren(
        el("h2", { text: "Not found" }),
        el("p", { text: "There is nothing here you may see." }),
      );
      main?.setAttribute("data-drawn", String(Date.now()));
      state = "still";
      showStatus("not found");
    } else
      showStatus(
        `cannot reach the server (${error instanceof Error ? error.message : String(error)})`,
      );
  } finally {
    drawing = false;
    if (again) {
      again = false;
      document.addEventListener("gauntlet:redraw", () => schedule());
      void showAccount();
      void draw();
    }
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
function schedule() {
  clearTimeout(timer);
  timer = setTimeout(() => void draw(), SETTLE_MS);
}

document.addEventListener("gauntlet:redraw", () => schedule());
void showAccount();
void draw();
