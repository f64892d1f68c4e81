// For the commissioner's tests: the program started as a real process on a free port, and a
// conversation with it over a real WebSocket on /round in which everything the test sends is
// checked against @gauntlet/core's schemas of the platform's messages (so the tests speak the
// protocol), and everything the commissioner sends against the schemas of its messages.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  COMMISSIONER_MESSAGE_MAX_BYTES,
  commissionerMessageSchemas,
  CommissionerToPlatform,
  jsonBytes,
  PlatformToCommissioner,
} from "@gauntlet/core";

const here = join(import.meta.dirname, "..");

export type Message = Record<string, unknown>;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

export interface Commissioner {
  port: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  exit: Promise<number | null>;
  kill(): void;
}

const running = new Set<Commissioner>();

/** Stops every commissioner a test left running (for afterEach). */
export function stopAll(): void {
  for (const c of running) c.kill();
  running.clear();
}

export async function startCommissioner(): Promise<Commissioner> {
  const port = await freePort();
  const child = spawn(process.execPath, ["commissioner/server.ts"], {
    cwd: here,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_COMPILE_CACHE: join(tmpdir(), "gridrush-test-compile-cache"),
      COMMISSIONER_HOST: "127.0.0.1",
      COMMISSIONER_PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const commissioner: Commissioner = {
    port,
    output: () => output,
    exit,
    kill: () => child.kill("SIGKILL"),
  };
  running.add(commissioner);
  for (let attempt = 0; ; attempt += 1) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (attempt > 300) throw new Error(`the commissioner never became healthy:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return commissioner;
}

export class Conversation {
  readonly #socket: WebSocket;
  readonly #inbox: unknown[] = [];
  #waiting: (() => void) | null = null;
  /** Every message the commissioner sent, as parsed JSON. */
  readonly received: Message[] = [];
  readonly closed: Promise<number>;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      this.#inbox.push(JSON.parse(String(event.data)));
      this.#waiting?.();
    });
    this.closed = new Promise((resolve) =>
      socket.addEventListener("close", (event) => {
        resolve(event.code);
        this.#waiting?.();
      }),
    );
  }

  static open(commissioner: Commissioner): Promise<Conversation> {
    const socket = new WebSocket(`ws://127.0.0.1:${commissioner.port}/round`);
    return new Promise((resolve, reject) => {
      socket.addEventListener("open", () => resolve(new Conversation(socket)));
      socket.addEventListener("error", () => reject(new Error("no WebSocket on /round")));
    });
  }

  /** Sends a platform message, which must itself be valid under the protocol's schemas. */
  send(message: Message): void {
    PlatformToCommissioner.parse(message);
    this.#socket.send(JSON.stringify(message));
  }

  /** Sends a frame as is (for malformed messages). */
  sendRaw(text: string): void {
    this.#socket.send(text);
  }

  /** The commissioner's next message, checked against the schema of its type. */
  async next(timeoutMs = 5_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    while (this.#inbox.length === 0) {
      if (this.#socket.readyState === WebSocket.CLOSED)
        throw new Error("the commissioner closed the session");
      if (Date.now() > deadline) throw new Error(`no message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
        setTimeout(resolve, 50);
      });
    }
    const raw = this.#inbox.shift();
    if (jsonBytes(raw) > COMMISSIONER_MESSAGE_MAX_BYTES) throw new Error("an oversized message");
    const parsed = CommissionerToPlatform.safeParse(raw);
    if (!parsed.success)
      throw new Error(`not a commissioner message: ${JSON.stringify(parsed.error.issues)}`);
    const schema = commissionerMessageSchemas[parsed.data.type];
    schema.parse(raw);
    this.received.push(raw as Message);
    return raw as Message;
  }

  /** The next message, which must be of `type`. */
  async expect(type: string, timeoutMs?: number): Promise<Message> {
    const message = await this.next(timeoutMs);
    if (message.type !== type)
      throw new Error(`expected ${type}, got ${JSON.stringify(message).slice(0, 500)}`);
    return message;
  }

  close(): void {
    this.#socket.close(1000);
  }

  get pending(): number {
    return this.#inbox.length;
  }
}
