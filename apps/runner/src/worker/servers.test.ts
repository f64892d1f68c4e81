import { describe, expect, it } from "vitest";

import {
  APIConnectionError,
  ConflictError,
  createClient,
  InternalServerError,
  type Gauntlet,
} from "@gauntlet/sdk";

import { createLog } from "./log.ts";
import { Redactor } from "./redactor.ts";
import { isNoAnswer, ServerPool } from "./servers.ts";

const urls = ["http://a.test", "http://b.test", "http://c.test"];
const clients = urls.map((url) => ({
  url,
  client: createClient({ baseUrl: url, token: "gntm_x", useSavedCredentials: false, env: {} }),
}));
const lines: string[] = [];
const log = createLog({ format: "text", redactor: new Redactor(), write: (l) => lines.push(l) });
const status = (code: number) =>
  code === 409
    ? new ConflictError({ status: 409, headers: new Headers(), body: {}, operationId: "x" })
    : new InternalServerError({ status: code, headers: new Headers(), body: {}, operationId: "x" });
const urlOf = (client: Gauntlet) => clients.find((c) => c.client === client)?.url;

describe("ServerPool", () => {
  it("moves to the next address when one does not answer, and starts there next time", async () => {
    const pool = new ServerPool({ clients, log, pauseMs: 1 });
    const tried: (string | undefined)[] = [];
    const answer = await pool.call("lease", async (client, options) => {
      tried.push(urlOf(client));
      expect(options.retries).toBe(0);
      if (urlOf(client) === "http://a.test") throw new APIConnectionError("ECONNREFUSED");
      if (urlOf(client) === "http://b.test") throw status(502);
      return "leased";
    });
    expect(answer).toBe("leased");
    expect(tried).toEqual(["http://a.test", "http://b.test", "http://c.test"]);
    expect(pool.current).toBe("http://c.test");
    expect(lines.join("")).toContain("no answer from a server; trying the next");
  });

  it("an answer, even a refusal, ends the call on the server that gave it", async () => {
    const pool = new ServerPool({ clients, log, pauseMs: 1 });
    let tries = 0;
    await expect(
      pool.call("complete", async () => {
        tries += 1;
        throw status(409);
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(tries).toBe(1);
  });

  it("gives up after its rounds, or keeps a report until some server answers", async () => {
    const pool = new ServerPool({ clients, log, pauseMs: 1, maxPauseMs: 2 });
    let tries = 0;
    await expect(
      pool.call(
        "download",
        async () => {
          tries += 1;
          throw new APIConnectionError("down");
        },
        {},
        { rounds: 2 },
      ),
    ).rejects.toBeInstanceOf(APIConnectionError);
    expect(tries).toBe(6);
    tries = 0;
    const kept = await pool.call(
      "complete",
      async () => {
        tries += 1;
        if (tries < 20) throw status(503);
        return "accepted";
      },
      {},
      { untilAnswered: true },
    );
    expect(kept).toBe("accepted");
    expect(tries).toBe(20);
  });

  it("counts a connection failure and a 5xx as no answer, a 409 as one", () => {
    expect(isNoAnswer(new APIConnectionError("reset"))).toBe(true);
    expect(isNoAnswer(status(500))).toBe(true);
    expect(isNoAnswer(status(409))).toBe(false);
  });
});
