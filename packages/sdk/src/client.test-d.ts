// Compile-time behaviour: inputs and results come from the contract, so a wrong parameter
// or a misread response field does not compile.
import { describe, expectTypeOf, it } from "vitest";

import type { EpisodeRequest, League, OperationId, PolicyVersion } from "@gauntlet/core";

import { createClient } from "./client.ts";
import { isAPIError, isNotFoundError, type ConflictError, type NotFoundError } from "./errors.ts";
import type { resources } from "./resources.ts";
import type { InputOf, ItemOf, ResultOf } from "./types.ts";

const client = createClient({ baseUrl: "http://localhost" });
const LEAGUE = "league_00000000-0000-4000-8000-000000000001";

describe("inputs", () => {
  it("require path parameters by their contract name", () => {
    void client.leagues.get({ league_id: LEAGUE });
    // @ts-expect-error the parameter is league_id
    void client.leagues.get({ leagueId: LEAGUE });
    // @ts-expect-error league_id is required
    void client.leagues.get({});
    // @ts-expect-error league_id is required
    void client.leagues.get();
    // @ts-expect-error a path parameter is a string
    void client.leagues.get({ league_id: 42 });
  });

  it("type query parameters as the caller means them", () => {
    void client.divisions.list({ league_id: LEAGUE, include_archived: true });
    void client.divisions.list();
    // @ts-expect-error a query boolean is a boolean, not the string the server parses
    void client.divisions.list({ include_archived: "true" });
    // @ts-expect-error unknown query parameter
    void client.divisions.list({ league: LEAGUE });
  });

  it("put the body under `body`, typed by the request schema", () => {
    void client.leagues.update({ league_id: LEAGUE, body: { name: "x" } });
    // @ts-expect-error the body is not spread into the input
    void client.leagues.update({ league_id: LEAGUE, name: "x" });
    // @ts-expect-error `paused` is a boolean
    void client.leagues.setRoundsPaused({ league_id: LEAGUE, body: { paused: "yes" } });
    // @ts-expect-error a required body field is missing
    void client.leagues.create({ body: { name: "x" } });
    // Fields with defaults may be left out.
    void client.leagues.create({ body: { name: "x", game_id: "game_1" } });
    void client.playerCredentials.create({ player_id: "ply_1" });
  });

  it("take bytes for an octet-stream body", () => {
    void client.coworldSecrets.put({
      coworld_name: "tag",
      secret_name: "API_KEY",
      body: new TextEncoder().encode("s3cret"),
    });
    void client.coworldSecrets.put({
      coworld_name: "tag",
      secret_name: "API_KEY",
      // @ts-expect-error the secret value is bytes
      body: { value: "s3cret" },
    });
  });

  it("accept request options as the second argument", () => {
    void client.whoami(undefined, {
      timeout: 1_000,
      retries: 0,
      token: null,
      idempotencyKey: "k",
      signal: AbortSignal.timeout(5),
    });
    // @ts-expect-error no such option
    void client.whoami(undefined, { timeoutMs: 1_000 });
  });

  it("are the same through request(id, …)", () => {
    expectTypeOf<InputOf<"getLeague">>().toEqualTypeOf<{ league_id: string }>();
    void client.request("getLeague", { league_id: LEAGUE });
    // @ts-expect-error not an operation
    void client.request("getLeagues", { league_id: LEAGUE });
  });
});

describe("results", () => {
  it("are the parsed response of the contract", async () => {
    const league = await client.leagues.get({ league_id: LEAGUE });
    expectTypeOf(league).toEqualTypeOf<League>();
    expectTypeOf(league.rounds_paused_at).toEqualTypeOf<string | null>();
    // @ts-expect-error no such field
    void league.paused_at;
    // @ts-expect-error it may be null
    void league.mod.name;
    const who = await client.whoami();
    expectTypeOf(who.subject_type).toEqualTypeOf<
      "anonymous" | "user" | "player" | "machine" | "reporter"
    >();
    // @ts-expect-error a subject type that does not exist
    if (who.subject_type === "admin") void who;
    expectTypeOf(await client.service.docs()).toEqualTypeOf<string>();
    expectTypeOf(await client.leagues.gameOfWeek()).toEqualTypeOf<League | null>();
  });

  it("iterate items only for list operations", async () => {
    for await (const division of client.divisions.list.iterate({ league_id: LEAGUE })) {
      expectTypeOf(division.level).toEqualTypeOf<number>();
      // @ts-expect-error no such field
      void division.tier;
    }
    expectTypeOf<ItemOf<"listLeagues">>().toEqualTypeOf<League>();
    // @ts-expect-error a single league is not a list
    void client.leagues.get.iterate;
    expectTypeOf<ResultOf<"getGameOfWeek">>().toEqualTypeOf<League | null>();
  });

  it("iterate cursor and offset pages item by item", () => {
    expectTypeOf(client.episodeRequests.list.iterate).returns.toEqualTypeOf<
      AsyncIterableIterator<EpisodeRequest>
    >();
    expectTypeOf<ItemOf<"searchPolicyVersions">>().toEqualTypeOf<PolicyVersion>();
    // @ts-expect-error the cursor is a string
    void client.episodeRequests.list.iterate({ cursor: 3 });
  });

  it("resolve binary operations to bytes", async () => {
    expectTypeOf(
      await client.episodeRequests.getArtifact({
        episode_request_id: "ereq_1",
        artifact_type: "replay",
      }),
    ).toEqualTypeOf<Uint8Array>();
    void client.episodeRequests.getArtifact({
      episode_request_id: "ereq_1",
      // @ts-expect-error not an artifact type of the contract
      artifact_type: "video",
    });
  });
});

describe("errors", () => {
  it("narrow with the guards, and a sibling stays out", (e: unknown) => {
    if (isNotFoundError(e)) expectTypeOf(e).toEqualTypeOf<NotFoundError>();
    if (isAPIError(e)) {
      expectTypeOf(e.status).toEqualTypeOf<number>();
      const sibling: NotFoundError | ConflictError = e as NotFoundError | ConflictError;
      if (isNotFoundError(sibling)) return;
      expectTypeOf(sibling).toEqualTypeOf<ConflictError>();
    }
  });
});

describe("resources table", () => {
  it("names every operation", () => {
    expectTypeOf<keyof typeof resources>().toEqualTypeOf<OperationId>();
  });
});
