// --wait: reads an evaluation until it has ended, on its live events with a poll as fallback.
import type { ExperienceRequestDetail, ExperienceRequestRow } from "@gauntlet/core";
import type { Gauntlet, ResultOf } from "@gauntlet/sdk";

import { progressOf } from "./view.ts";

const ENDED = new Set<ExperienceRequestRow["status"]>(["completed", "failed", "cancelled"]);
/** Between re-reads while waiting: the live events say when to read, this is the fallback. */
const POLL_MS = 2_000;

export /**
 * Reads the request until it has ended: again on each of its live events
 * (`experience-request:{id}`), and every POLL_MS in case the socket cannot be had.
 */
async function waitForEnd(
  client: Gauntlet,
  id: string,
  onProgress: (r: ExperienceRequestDetail) => void,
): Promise<ExperienceRequestDetail> {
  let last = await client.experienceRequests.get({ experience_request_id: id });
  if (ENDED.has(last.status)) return last;
  const info = await liveEventsInfo(client);
  return new Promise((resolve, reject) => {
    let reading = false;
    let again = false;
    const read = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      client.experienceRequests.get({ experience_request_id: id }).then(
        (current) => {
          reading = false;
          if (current.status !== last.status || progressOf(current) !== progressOf(last))
            onProgress(current);
          last = current;
          if (ENDED.has(current.status)) finish();
          else if (again) {
            again = false;
            read();
          }
        },
        (error: unknown) => {
          stop();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    };
    const timer = setInterval(read, POLL_MS);
    const sub = client.events.subscribe([`experience-request:${id}`], {
      ...(info ? { sinceSeq: info.last_seq } : {}),
      onEvent: read,
      // The poll carries on whatever happens to the socket.
      onError: () => undefined,
    });
    const stop = () => {
      clearInterval(timer);
      sub.close();
    };
    const finish = () => {
      stop();
      resolve(last);
    };
    read();
  });
}

/**
 * Where the live events stand, or null on a server that has none (404): the poll alone follows
 * the request there. Any other failure is the user's to see.
 */
async function liveEventsInfo(client: Gauntlet): Promise<ResultOf<"subscribeEvents"> | null> {
  const { isNotFoundError } = await import("@gauntlet/sdk");
  try {
    return await client.events.info();
  } catch (error) {
    if (isNotFoundError(error)) return null;
    throw error;
  }
}
