// The competition feed and the live-events WebSocket (docs/api.md, "League play in short" and
// "Groups").
import { z } from "zod";

import { CompetitionEvent, ListCompetitionEventsQuery } from "../../models/league-play.ts";
import { EventsStreamInfo } from "../../models/live-events.ts";
import { defineOperation } from "../operation.ts";

export const competitionEventOperations = {
  listCompetitionEvents: defineOperation({
    id: "listCompetitionEvents",
    method: "GET",
    path: "/v2/competition-events",
    tag: "Events",
    summary: "The competition feed, newest first",
    description:
      "Events of leagues you can see; `owner` events only for their user, the commissioner and admins. `limit` 1–500.",
    auth: "optional",
    // Expensive: a page of 500 events is about 2 MB to read, render and send (20–45 ms of the
    // event loop at 30,000 events in the log), and a live-events replay is charged at the same
    // rate per event.
    complexity: 50,
    query: ListCompetitionEventsQuery,
    status: 200,
    response: z.array(CompetitionEvent),
  }),
  subscribeEvents: defineOperation({
    id: "subscribeEvents",
    method: "GET",
    path: "/v2/events",
    tag: "Events",
    summary: "Live events (WebSocket)",
    description: [
      "Upgrade to a WebSocket (the same bearer token authenticates it; anonymous connections see public leagues only).",
      'Send `{type: "subscribe", topics: ["division:{id}" | "league:{id}" | "episode-requests:mine"], since_seq?, compact?}`;',
      'the server answers `{type: "subscribed", topics, seq}` and then sends `{seq, topic, type, data, at}` per event, `data` being the CompetitionEvent (with `compact: true`, the CompactCompetitionEvent: `league_id` and `division_id` in place of the embedded league and division).',
      '`seq` is global and gapless over all events, so a client resumes with the last seq it saw; a topic it may not see answers `{type: "error", message}`.',
      "The upgrade is a request like any other (it draws on the caller's budget, an anonymous caller's on its address's); messages on an open socket are exempt from the shared budgets, except a replay (`since_seq`): it draws on the caller's budget at the feed's rate per event, and stops with an `error` message once the budget is spent (live events go on).",
      "A replica holds a bounded number of open sockets per client address (anonymous) and per user: one over the cap is closed with code 4029.",
      "A plain GET (no upgrade) answers this description with the newest seq.",
    ].join(" "),
    auth: "optional",
    complexity: 1,
    status: 200,
    response: EventsStreamInfo,
  }),
} as const;
