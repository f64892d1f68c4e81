// The web view's script (served as `/home.js`): plain browser JavaScript, kept as text because
// it runs in the page, not in the server. It builds every element with textContent, so a name
// chosen by a competitor (`<script>…`) is shown as the characters it is. It polls the
// competition feed's newest event and re-reads the standings, rounds and episodes when it moves.
import { LISTED_EPISODES, LISTED_ROUNDS } from "./listed.ts";

export const HOME_SCRIPT = String.raw`"use strict";
(function () {
  var base = document.documentElement.getAttribute("data-base") || "";
  var root = document.getElementById("leagues");
  var status = document.getElementById("status");
  var POLL_MS = 3000;
  var REREAD_MS = 15000;
  var lastSeq = null;
  var renderedAt = 0;
  var busy = false;
  // "live" only while a shown division has a round running; else how long the league has been quiet.
  var playing = false;
  var lastRoundAt = null;

  function get(path) {
    return fetch(base + path, { headers: { accept: "application/json" }, credentials: "omit" }).then(function (r) {
      if (!r.ok) throw new Error(path + " answered " + r.status);
      return r.json();
    });
  }

  function el(tag, props, children) {
    var e = document.createElement(tag);
    if (props) for (var k in props) {
      if (k === "text") e.textContent = props[k];
      else e.setAttribute(k, props[k]);
    }
    (children || []).forEach(function (c) { if (c) e.append(c); });
    return e;
  }

  function ago(iso) {
    if (!iso) return "";
    var s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    if (s < 60) return s + "s ago";
    if (s < 3600) return Math.round(s / 60) + "m ago";
    if (s < 86400) return Math.round(s / 3600) + "h ago";
    return Math.round(s / 86400) + "d ago";
  }

  function table(head, rows, numeric) {
    return el("table", null, [
      el("thead", null, [el("tr", null, head.map(function (h, i) {
        return el("th", numeric.indexOf(i) >= 0 ? { text: h, class: "num" } : { text: h });
      }))]),
      el("tbody", null, rows.map(function (cells) {
        return el("tr", null, cells.map(function (c, i) {
          var td = el("td", numeric.indexOf(i) >= 0 ? { class: "num" } : null);
          if (c instanceof Node) td.append(c); else td.textContent = c == null ? "" : String(c);
          return td;
        }));
      })),
    ]);
  }

  function standings(rows) {
    if (!rows.length) return el("p", { class: "muted", text: "No standings yet." });
    return table(["#", "player", "score", "rounds", "episodes"], rows.map(function (r) {
      return [r.rank, r.player_name || r.player_id || "?", Math.round(r.score), r.rounds_played, r.episodes_played];
    }), [0, 2, 3, 4]);
  }

  function rounds(page) {
    var list = page.entries || [];
    if (!list.length) return el("p", { class: "muted", text: "No rounds yet." });
    return table(["round", "status", "when"], list.map(function (r) {
      return ["#" + r.round_number, r.status + (r.error ? " (" + r.error + ")" : ""), ago(r.completed_at || r.started_at || r.created_at)];
    }), [0]);
  }

  function startsIn(iso) {
    if (!iso) return "waiting for a runner";
    var s = Math.round((Date.parse(iso) - Date.now()) / 1000);
    if (s <= 0) return "starts any moment";
    if (s < 60) return "starts in under a minute";
    if (s < 5400) return "starts in about " + Math.round(s / 60) + " min";
    return "starts in about " + Math.round(s / 3600) + " h";
  }

  // The division's current round, when some of its episodes wait in the queue: how many, where
  // the first of them stands, and when it should start (the round's "waiting" field).
  function waiting(page) {
    var round = (page.entries || []).filter(function (r) { return r.status === "running" && r.waiting; })[0];
    if (!round) return null;
    var w = round.waiting;
    return el("p", { class: "waiting", text: "round #" + round.round_number + ": " + w.queued_episodes +
      (w.queued_episodes === 1 ? " episode" : " episodes") + " queued, first at position " + w.queue_position +
      ", " + startsIn(w.estimated_start_at) });
  }

  function episodes(page) {
    var list = page.entries || [];
    if (!list.length) return el("p", { class: "muted", text: "No episodes yet." });
    return table(["players", "scores", "status", "replay"], list.map(function (e) {
      var names = e.participants.map(function (p) { return p.player_name || p.policy_name; }).join(" vs ");
      var scores = e.scores.map(function (s) { return String(Math.round(s.score * 100) / 100); }).join(" – ");
      var replay = e.artifacts_expired_at
        ? el("span", { class: "muted", text: "expired" })
        : e.replay_url
          ? el("a", { href: base + "/v2/episode-requests/" + encodeURIComponent(e.id) + "/replay-viewer", text: "replay" })
          : "";
      return [names, scores, e.status + (e.error_type ? " (" + e.error_type + ")" : ""), replay];
    }), []);
  }

  function division(d) {
    var id = encodeURIComponent(d.id);
    return Promise.all([
      get("/v2/divisions/" + id + "/leaderboard"),
      get("/v2/rounds?division_id=" + id + "&limit=${LISTED_ROUNDS}"),
      get("/v2/episode-requests?division_id=" + id + "&limit=${LISTED_EPISODES}"),
    ]).then(function (parts) {
      (parts[1].entries || []).forEach(function (r) {
        if (r.status === "running" || r.status === "pending") playing = true;
        var at = r.started_at || r.created_at;
        if (at && (!lastRoundAt || at > lastRoundAt)) lastRoundAt = at;
      });
      return el("section", { class: "division-block", "data-division": d.id }, [
        el("h3", { text: d.name + (d.description ? " — " + d.description : "") }),
        waiting(parts[1]),
        el("div", { class: "division" }, [
          el("div", null, [el("h4", { text: "Standings" }), standings(parts[0])]),
          el("div", null, [el("h4", { text: "Recent rounds" }), rounds(parts[1])]),
        ]),
        el("h4", { text: "Recent episodes" }),
        episodes(parts[2]),
      ]);
    });
  }

  function league(l) {
    return get("/v2/divisions?league_id=" + encodeURIComponent(l.id)).then(function (divisions) {
      var shown = divisions.filter(function (d) { return !d.hidden && !d.archived_at; });
      shown.sort(function (a, b) { return a.level - b.level; });
      return Promise.all(shown.map(division)).then(function (blocks) {
        return el("section", { class: "league", "data-league": l.id }, [
          el("h2", { text: l.name }),
          l.description ? el("p", { class: "muted", text: l.description }) : null,
        ].concat(blocks.length ? blocks : [el("p", { class: "muted", text: "No divisions yet." })]));
      });
    });
  }

  function render() {
    playing = false;
    lastRoundAt = null;
    return get("/v2/leagues").then(function (leagues) {
      return Promise.all(leagues.map(league));
    }).then(function (sections) {
      root.replaceChildren.apply(root, sections.length ? sections : [el("p", { class: "muted", text: "No public leagues yet." })]);
    });
  }

  function tick() {
    if (busy) return;
    busy = true;
    get("/v2/competition-events?limit=1").then(function (events) {
      var seq = events.length ? events[0].seq : 0;
      // Episodes finish between feed events: re-read now and then even when the feed is still.
      if (seq === lastSeq && Date.now() - renderedAt < REREAD_MS) return null;
      return render().then(function () { lastSeq = seq; renderedAt = Date.now(); });
    }).then(function () {
      var state = playing
        ? "live: rounds running"
        : "quiet: no round running" + (lastRoundAt ? ", the last started " + ago(lastRoundAt) : "");
      status.textContent = state + " · checked " + new Date().toLocaleTimeString();
      status.className = "";
    }, function (error) {
      status.textContent = "cannot reach the server (" + error.message + "); retrying";
      status.className = "error";
    }).then(function () { busy = false; });
  }

  tick();
  setInterval(tick, POLL_MS);
})();
`;
