// The live-events WebSocket `GET /v2/events` (docs/api.md, "Groups"): the messages both sides
// send. The server and the SDK use these shapes; nothing else defines them.
//
// `seq` is global: one counter over every event the service records, gapless, in commit order.
// A client that remembers the last `seq` it saw resumes with `since_seq` and gets each later
// event of its topics once (events it may not see are skipped, so its own sequence has gaps).
import { z } from "zod";

/**
 * What the server sends for each domain event. `data` is the event as the feed shows it
 * (CompetitionEvent).
 */
export const LiveEventMessage = z
  .object({
    seq: z.number().int().nonnegative(),
    topic: z.string(),
    type: z.string(),
    data: z.unknown(),
    at: z.string(),
  })
  .meta({ id: "LiveEventMessage" });

/**
 * A server notice that is not an event: `{type: "error", message}` (a refused topic, a bad
 * message; the connection stays open) or `{type: "subscribed", topics, seq}` (the topics now
 * live, and the newest `seq` at that moment).
 */
export const LiveControlMessage = z
  .looseObject({ type: z.string(), message: z.string().optional() })
  .meta({ id: "LiveControlMessage" });

/** What the client sends after connecting, and again after each reconnect. Topics add up. */
export const SubscribeMessage = z
  .strictObject({
    type: z.literal("subscribe"),
    topics: z.array(z.string()).min(1).max(100),
    since_seq: z.number().int().nonnegative().optional(),
    compact: z.boolean().optional().meta({
      description:
        "`true`: each event's `data` is a CompactCompetitionEvent (`league_id` and `division_id` in place of the embedded objects: about a sixth of the bytes). For the whole connection, from this subscribe on; `false` returns to the full form.",
    }),
  })
  .meta({ id: "SubscribeMessage" });

/** The topics a client may subscribe to. */
export const liveTopicPatterns = [
  "division:{division_id}",
  "league:{league_id}",
  "episode-requests:mine",
  "experience-request:{experience_request_id}",
] as const;

/** What a plain GET of `/v2/events` (no upgrade) answers: how to use the stream. */
export const EventsStreamInfo = z
  .object({
    protocol: z.literal("websocket"),
    topics: z.array(z.string()),
    last_seq: z.number().int().nonnegative().meta({
      description:
        "The newest event's seq: subscribe with since_seq = last_seq to get everything after now.",
    }),
    message: z.string(),
  })
  .meta({ id: "EventsStreamInfo" });

export type LiveEvent = z.infer<typeof LiveEventMessage>;
export type LiveControl = z.infer<typeof LiveControlMessage>;
export type SubscribeMessage = z.infer<typeof SubscribeMessage>;
export type EventsStreamInfo = z.infer<typeof EventsStreamInfo>;
