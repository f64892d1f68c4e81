// The live events (`GET /v2/events`, a WebSocket): a page subscribes to the topics of what it
// shows, hears each event once, and after a drop reconnects and resumes from the last `seq` it
// saw (`since_seq`), so nothing that happened meanwhile is missed. No polling.
import type { LiveEvent } from "@gauntlet/core";

import { base } from "./api.ts";

export type LiveState = "connecting" | "live" | "reconnecting";

export interface LiveFollower {
  onEvent(event: LiveEvent): void;
  onState(state: LiveState): void;
}

const MAX_TOPICS = 100;
const MAX_BACKOFF_MS = 10_000;

export function follow(topics: readonly string[], follower: LiveFollower): void {
  const wanted = [...new Set(topics)].slice(0, MAX_TOPICS);
  if (wanted.length === 0) return;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/v2/events`;
  let lastSeq: number | null = null;
  let backoff = 500;

  const connect = () => {
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      socket.send(
        JSON.stringify({
          type: "subscribe",
          topics: wanted,
          // The page reads anew on an event and never looks at its data: the smaller form.
          compact: true,
          ...(lastSeq === null ? {} : { since_seq: lastSeq }),
        }),
      );
    });
    socket.addEventListener("message", (message) => {
      let data: unknown;
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (typeof data !== "object" || data === null) return;
      const m = data as Partial<LiveEvent> & { type?: string; seq?: number };
      if (m.type === "subscribed") {
        backoff = 500;
        if (lastSeq === null && typeof m.seq === "number") lastSeq = m.seq;
        follower.onState("live");
        return;
      }
      if (m.type === "error" || typeof m.seq !== "number" || typeof m.topic !== "string") return;
      if (lastSeq !== null && m.seq <= lastSeq) return;
      lastSeq = m.seq;
      follower.onEvent(m as LiveEvent);
    });
    socket.addEventListener("close", () => {
      follower.onState("reconnecting");
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    });
  };
  follower.onState("connecting");
  connect();
}
