import { liveTopicPatterns } from "@gauntlet/core";

import { defineHandlers } from "../http/handler.ts";
import { listCompetitionEvents } from "./feed.ts";

export const competitionEventHandlers = defineHandlers({
  listCompetitionEvents: async ({ identity, query, app }) =>
    listCompetitionEvents(app.store.db, identity, query),
  // Reached only without an upgrade: the WebSocket itself is events/websocket-route.ts.
  subscribeEvents: async ({ app }) => ({
    protocol: "websocket" as const,
    topics: [...liveTopicPatterns],
    last_seq: app.events.hub.lastSeq,
    message:
      'Open this address as a WebSocket and send {"type":"subscribe","topics":[…],"since_seq":N}.',
  }),
});
