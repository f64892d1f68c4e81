// A channel whose far end is a program in this process: the built-in commissioners, and tests'
// scripted commissioners. Messages cross as JSON text both ways, so the far end sees what a
// sandboxed commissioner would read off its socket and the driver parses what it would write.
import { COMMISSIONER_MESSAGE_MAX_BYTES } from "@gauntlet/core";

import { CommissionerFailure, type CommissionerChannel } from "./channel.ts";

/** The commissioner's side of an in-process conversation. */
export interface CommissionerProgram {
  /** Called for each platform message; `reply` sends one message back. A throw is a crash. */
  onMessage(
    message: Record<string, unknown>,
    reply: (message: unknown) => void,
  ): void | Promise<void>;
}

const LOG_CAP = 64 * 1024;

export function memoryChannel(program: CommissionerProgram): CommissionerChannel {
  const inbox: string[] = [];
  let waiter: ((text: string | CommissionerFailure) => void) | null = null;
  let ended: CommissionerFailure | null = null;
  let log = "";

  const deliver = (item: string | CommissionerFailure) => {
    if (typeof item !== "string") ended ??= item;
    const w = waiter;
    waiter = null;
    if (w) w(item);
    else if (typeof item === "string") inbox.push(item);
  };
  const reply = (message: unknown) => {
    if (ended) return;
    deliver(JSON.stringify(message));
  };
  const crash = (error: unknown) => {
    const text = error instanceof Error ? error.message : String(error);
    log = `${log}${text}\n`.slice(-LOG_CAP);
    deliver(new CommissionerFailure("crashed", `the commissioner crashed: ${text}`));
  };

  return {
    send(message) {
      if (ended) return Promise.reject(ended);
      const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
      // The far end runs on its own time, as a process would: a hung program blocks no send.
      void Promise.resolve()
        .then(() => program.onMessage(copy, reply))
        .catch(crash);
      return Promise.resolve();
    },
    next(timeoutMs) {
      const queued = inbox.shift();
      if (queued !== undefined) return Promise.resolve(parse(queued));
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = null;
          reject(
            new CommissionerFailure(
              "timeout",
              `no message from the commissioner in ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiter = (item) => {
          clearTimeout(timer);
          if (typeof item === "string") {
            try {
              resolve(parse(item));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          } else reject(item);
        };
      });
    },
    close(reason) {
      if (!ended) deliver(new CommissionerFailure("disconnected", `closed: ${reason}`));
      return Promise.resolve();
    },
    log: () => Promise.resolve(log),
  };
}

function parse(text: string): unknown {
  if (Buffer.byteLength(text) > COMMISSIONER_MESSAGE_MAX_BYTES)
    throw new CommissionerFailure(
      "oversized",
      `a message of ${Buffer.byteLength(text)} bytes is past the limit`,
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new CommissionerFailure("malformed", "a message that is not JSON");
  }
}
