// A coworld commissioner as a program, for the tests of the commissioner runtime: it is packed
// into a test coworld's files and run by a real runner in its sandbox (or built into an image for
// the docker runtime's: apps/runner/testing/docker.ts). It listens on
// 8080 (`GET /healthz`, `WEBSOCKET /round`; a minimal RFC 6455 server, for Node has no WebSocket
// server) and speaks the hosted service's commissioner protocol: it keeps the league's divisions,
// asks for a round in each division until FIXTURE_ROUNDS rounds have completed, pairs the round's
// champions, tags each episode (FIXTURE_NOTE adds a `note` tag), and ranks the entrants by player name from Z to A whatever they
// scored (a ranking no rating rule would give). FIXTURE_MISBEHAVE ({"<round number>": how})
// makes a round's session crash, hang, send garbage, send a message past 16 MiB, flood the relay
// with messages (flood), leave the platform's answers unread (deaf), hand back a display of megabytes (big_display) or ask for more episodes
// than the league allows (many_episodes).
// Node built-ins only: it runs as `node commissioner-fixture.ts` in the coworld's files.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

type Message = Record<string, unknown>;
interface Membership {
  id: string;
  division_id: string;
  policy_version_id: string;
  player_name?: string | null;
  status: string;
  is_champion: boolean;
}

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const misbehave = JSON.parse(process.env.FIXTURE_MISBEHAVE ?? "{}") as Record<string, string>;
const roundsWanted = Number(process.env.FIXTURE_ROUNDS ?? "1");
/** A tag of the author's choosing on each episode (the web view's test: markup shown as text). */
const note = process.env.FIXTURE_NOTE ?? "";

function frame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const n = payload.byteLength;
  const head =
    n < 126
      ? Buffer.from([0x81, n])
      : n < 65_536
        ? Buffer.from([0x81, 126, n >> 8, n & 0xff])
        : Buffer.concat([Buffer.from([0x81, 127]), bigLength(n)]);
  return Buffer.concat([head, payload]);
}

function bigLength(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** Reads the client's (masked) frames off `socket`, handing each whole text message to `onText`. */
function readFrames(socket: Duplex, onText: (text: string) => void): void {
  let pending = Buffer.alloc(0);
  let parts: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length < 2) return;
      const b0 = pending[0] ?? 0;
      const b1 = pending[1] ?? 0;
      let length = b1 & 0x7f;
      let at = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        at = 10;
      }
      if (pending.length < at + 4 + length) return;
      const mask = pending.subarray(at, at + 4);
      const payload = Buffer.from(pending.subarray(at + 4, at + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
      pending = pending.subarray(at + 4 + length);
      const opcode = b0 & 0x0f;
      if (opcode === 0x8) {
        socket.end(Buffer.from([0x88, 0]));
        return;
      }
      if (opcode === 0x9) {
        socket.write(Buffer.concat([Buffer.from([0x8a, payload.length]), payload]));
        continue;
      }
      if (opcode === 0x1 || opcode === 0x0) {
        parts.push(payload);
        if ((b0 & 0x80) !== 0) {
          onText(Buffer.concat(parts).toString("utf8"));
          parts = [];
        }
      }
    }
  });
}

/** One session: the protocol as the platform drives it. */
function session(socket: Duplex): void {
  const send = (message: unknown) => socket.write(frame(JSON.stringify(message)));
  let memberships: Membership[] = [];
  let division = "";
  const pending = new Set<string>();
  let ending = false;
  readFrames(socket, (text) => {
    const message = JSON.parse(text) as Message;
    switch (message.type) {
      case "league_migration_config_request":
        send({
          type: "league_migration_config_response",
          divisions: (message.divisions as { name: string; level: number }[]).map((d) => ({
            name: d.name,
            level: d.level,
            type: "competition",
          })),
        });
        return;
      case "league_migration_request":
        send({ type: "league_migration_response", policy_membership_events: [] });
        return;
      case "schedule_rounds_request": {
        const done = (message.recent_rounds as { status: string }[]).filter(
          (r) => r.status === "completed",
        ).length;
        const active = message.active_memberships as Membership[];
        const divisions = message.divisions as { id: string }[];
        send({
          type: "schedule_rounds_response",
          rounds:
            done >= roundsWanted
              ? []
              : divisions
                  .map((d) => ({
                    division_id: d.id,
                    round_config: {
                      stages: [{ label: "Round", num_episodes: 1 }],
                      entrant_policy_version_ids: active
                        .filter((m) => m.division_id === d.id && m.is_champion)
                        .map((m) => m.policy_version_id),
                    },
                  }))
                  .filter((r) => r.round_config.entrant_policy_version_ids.length >= 2),
        });
        return;
      }
      case "round_start": {
        const how = misbehave[String(message.round_number)];
        console.error(`fixture: round ${String(message.round_number)} starts (${how ?? "fair"})`);
        if (how === "crash") {
          console.error("fixture: falling over on purpose");
          process.exit(3);
        }
        if (how === "hang") return;
        if (how === "garbage") {
          socket.write(frame("this is not a protocol message"));
          return;
        }
        if (how === "flood") {
          // Message after message, each well within 16 MiB, as fast as the runner reads them.
          const junk = JSON.stringify({
            type: "schedule_episodes",
            episodes: [],
            padding: "x".repeat(1024 * 1024),
          });
          const bytes = frame(junk);
          const pump = () => {
            while (!socket.destroyed && socket.write(bytes));
            if (!socket.destroyed) socket.once("drain", pump);
          };
          pump();
          return;
        }
        if (how === "deaf") {
          // Stops reading its socket, and asks for episodes the platform refuses, each refusal
          // echoing the request's long id back: the platform's answers pile up unread.
          socket.pause();
          let n = 0;
          const pump = () => {
            while (!socket.destroyed) {
              const bytes = frame(
                JSON.stringify({
                  type: "schedule_episodes",
                  episodes: Array.from({ length: 1000 }, () => ({
                    request_id: `${(n += 1)}-${"r".repeat(1000)}`,
                    variant_id: "no-such-variant",
                    policy_version_ids: [],
                  })),
                }),
              );
              if (!socket.write(bytes)) break;
            }
            if (!socket.destroyed) socket.once("drain", pump);
          };
          pump();
          return;
        }
        if (how === "big_display") {
          send({
            type: "round_complete",
            results: [],
            round_display: { padding: "x".repeat(12 * 1024 * 1024) },
            round_config: {},
          });
          return;
        }
        if (how === "many_episodes") {
          // More episodes than the league's max_episodes_per_round, in one message; the round
          // then ends as soon as the platform answers.
          const champions = (message.memberships as Membership[]).filter((m) => m.is_champion);
          const variant = (message.variants as { id: string }[])[0]?.id ?? "";
          const [a, b] = champions;
          if (!a || !b) return;
          ending = true;
          send({
            type: "schedule_episodes",
            episodes: Array.from({ length: 10 }, (_, i) => ({
              request_id: `many-${i}`,
              variant_id: variant,
              policy_version_ids: [a.policy_version_id, b.policy_version_id],
              game_config_overrides: { turns: 5, width: 5, height: 5 },
            })),
          });
          return;
        }
        if (how === "oversized") {
          send({ type: "schedule_episodes", episodes: [], padding: "x".repeat(17 * 1024 * 1024) });
          return;
        }
        const divisions = message.divisions as { id: string }[];
        division = divisions[0]?.id ?? "";
        memberships = (message.memberships as Membership[]).filter(
          (m) => m.division_id === division && m.is_champion,
        );
        const variant = (message.variants as { id: string }[])[0]?.id ?? "";
        const [a, b] = memberships;
        if (!a || !b) return;
        pending.add("pair");
        send({
          type: "schedule_episodes",
          episodes: [
            {
              request_id: "pair",
              variant_id: variant,
              policy_version_ids: [a.policy_version_id, b.policy_version_id],
              seed: 11,
              tags: {
                stage: "fixture",
                round: String(message.round_number),
                ...(note ? { note } : {}),
              },
              game_config_overrides: { turns: 5, width: 5, height: 5 },
            },
          ],
        });
        return;
      }
      case "episodes_accepted":
      case "episodes_rejected":
        if (ending) {
          ending = false;
          send({ type: "round_complete", results: [], state: { fixture: true } });
        }
        return;
      case "episode_result":
      case "episode_failed": {
        pending.delete(message.request_id as string);
        if (pending.size > 0) return;
        // Z to A by player name, whatever the scores were.
        const order = [...memberships].sort((x, y) =>
          (y.player_name ?? "").localeCompare(x.player_name ?? ""),
        );
        send({
          type: "round_complete",
          results: [
            {
              division_id: division,
              rankings: order.map((m, i) => ({
                policy_version_id: m.policy_version_id,
                rank: i + 1,
                score: 100 - i * 10,
              })),
            },
          ],
          policy_membership_events: [],
          state: { fixture: true },
        });
        return;
      }
      default:
        return;
    }
  });
}

const server = createServer((request, response) => {
  response.writeHead(request.url === "/healthz" ? 200 : 404).end();
});
server.on("upgrade", (request: IncomingMessage, socket: Duplex) => {
  const key = request.headers["sec-websocket-key"];
  if (request.url !== "/round" || typeof key !== "string") {
    socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
    return;
  }
  const accept = createHash("sha1")
    .update(key + GUID)
    .digest("base64");
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  session(socket);
});
server.listen(8080, "0.0.0.0", () => console.error("fixture: listening on 8080"));
