// The live model of one division on screen: its standings, its current round and the league's
// feed. It loads them once, then follows the league's live events over the SDK's subscription,
// resuming from the last `seq` after a drop. While the socket cannot be had it polls the
// competition feed instead, at a pace taken from the caller's budget headers. Every failure
// becomes a notice for the status line; nothing here throws at the screen.
import {
  CompetitionEvent,
  visibleDeep,
  type Division,
  type DivisionLeaderboard,
  type DivisionPairwise,
  type League,
  type LiveEvent,
  type Round,
} from "@gauntlet/core";
import {
  isAPIUserAbortError,
  isRateLimitError,
  type EventSubscription,
  type Gauntlet,
  type SubscriptionStatus,
} from "@gauntlet/sdk";

import { EPISODES_LIMIT, isEpisodeOf, mergeEvents, mergeFeed } from "../state/feed.ts";
import {
  isSameOrLater,
  progressFromEpisodes,
  withEpisodeSettled,
  withRoundStatus,
  type RoundProgress,
} from "../state/round-progress.ts";
import { nextStandings, type StandingsView } from "../state/standings.ts";
import { describeError } from "./describe-error.ts";
import type { Notice, Notices } from "./notices.ts";
import { pollIntervalMs, type PollPace } from "./poll-budget.ts";

export type ConnectionState =
  | { readonly kind: "connecting" }
  | { readonly kind: "live" }
  | { readonly kind: "polling"; readonly everyMs: number }
  | { readonly kind: "stopped" };

export interface WatchSnapshot {
  /** Null until the standings first load. */
  readonly standings: StandingsView | null;
  /** What beats what: loaded with the standings; null until then. */
  readonly pairwise: DivisionPairwise | null;
  readonly round: RoundProgress | null;
  /** The league's feed, newest first, bounded (state/feed.ts). */
  readonly feed: readonly CompetitionEvent[];
  /** The division's latest settled episodes, newest first, bounded. */
  readonly episodes: readonly CompetitionEvent[];
  readonly connection: ConnectionState;
  /** The newest event applied, from the socket or a poll. */
  readonly lastSeq: number | null;
  /** Events applied since the start. */
  readonly events: number;
}

export interface DivisionWatchOptions {
  client: Gauntlet;
  league: League;
  division: Division;
  notices: Notices;
  /** Standings already read (with the route, in the first screen's one request): shown at once. */
  standings?: DivisionLeaderboard;
  /** How many feed entries to load at the start. Default 200. */
  feedLoad?: number;
  pollPace?: PollPace;
  /** Delay before retrying a failed load; doubles up to 30 s. Default 2 000 ms. */
  retryBaseMs?: number;
  /** After the subscription ends for good, try a new one after this long. Default 30 000 ms. */
  resubscribeMs?: number;
}

/** Episodes of a round listed at once; a longer round shows its count from `round_display`. */
const EPISODES_PAGE = 200;
const POLL_PAGE = 100;

type Listener = () => void;

export class DivisionWatch {
  readonly #client: Gauntlet;
  readonly #league: League;
  readonly #division: Division;
  readonly #notices: Notices;
  /** The last trouble this watch reported: cleared once the connection is back. */
  #trouble: Notice | null = null;
  readonly #options: DivisionWatchOptions;
  readonly #abort = new AbortController();
  readonly #listeners = new Set<Listener>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #snapshot: WatchSnapshot = {
    standings: null,
    pairwise: null,
    round: null,
    feed: [],
    episodes: [],
    connection: { kind: "connecting" },
    lastSeq: null,
    events: 0,
  };
  #subscription: EventSubscription | null = null;
  #socketStatus: SubscriptionStatus = "connecting";
  #pollTimer: ReturnType<typeof setTimeout> | null = null;
  #standingsLoad: Promise<void> | null = null;
  #standingsDirty = false;
  /** Rounds being loaded, with the episodes whose events arrived meanwhile (id → failed). */
  readonly #roundLoads = new Map<string, Map<string, boolean>>();
  readonly #isEpisode: (event: CompetitionEvent) => boolean;
  #started = false;
  /** Standings given at the start: the first load reads only the pairwise results. */
  #seeded: boolean;

  constructor(options: DivisionWatchOptions) {
    this.#client = options.client;
    this.#league = options.league;
    this.#division = options.division;
    this.#notices = options.notices;
    this.#options = options;
    this.#isEpisode = isEpisodeOf(options.division.id);
    this.#seeded = options.standings !== undefined;
    if (options.standings !== undefined)
      this.#snapshot = { ...this.#snapshot, standings: nextStandings(null, options.standings) };
  }

  get divisionId(): string {
    return this.#division.id;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): WatchSnapshot => this.#snapshot;

  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.#connect();
    this.#loadAll();
  }

  stop(): void {
    if (this.#abort.signal.aborted) return;
    this.#abort.abort();
    this.#subscription?.close();
    this.#subscription = null;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#pollTimer !== null) clearTimeout(this.#pollTimer);
    this.#pollTimer = null;
    this.#update({ connection: { kind: "stopped" } });
  }

  get #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  #update(patch: Partial<WatchSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #later(ms: number, run: () => void): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!this.#stopped) run();
    }, ms);
    this.#timers.add(timer);
  }

  #report(error: unknown, what: string): void {
    if (this.#stopped || isAPIUserAbortError(error)) return;
    const line = describeError(error, what);
    this.#notices.report(line.level, line.text);
    this.#trouble = this.#notices.latest;
  }

  /** Back in touch with the server: a line about the trouble would only mislead now. */
  #recovered(): void {
    if (this.#trouble === null) return;
    this.#notices.clear(this.#trouble);
    this.#trouble = null;
  }

  /** Runs `load` until it succeeds (or the watch stops), waiting longer after each failure. */
  #retrying(what: string, load: () => Promise<void>, attempt = 0): Promise<void> {
    return load().then(
      () => this.#recovered(),
      (error: unknown) => {
        if (this.#stopped || isAPIUserAbortError(error)) return;
        this.#report(error, what);
        const base = this.#options.retryBaseMs ?? 2_000;
        const wait = Math.max(
          isRateLimitError(error) ? (error.retryAfterSeconds ?? 0) * 1000 : 0,
          Math.min(30_000, base * 2 ** attempt),
        );
        return new Promise<void>((resolve) =>
          this.#later(wait, () => void this.#retrying(what, load, attempt + 1).then(resolve)),
        );
      },
    );
  }

  // Loading ------------------------------------------------------------------------------

  #loadAll(): void {
    void this.#retrying("standings", () => this.#loadStandings());
    void this.#retrying("current round", () => this.#loadLatestRound());
    void this.#retrying("feed", () => this.#loadFeed());
  }

  async #loadStandings(): Promise<void> {
    const seeded = this.#seeded;
    this.#seeded = false;
    const [rows, pairwise] = await Promise.all([
      seeded
        ? null
        : this.#client.divisions.leaderboard(
            { division_id: this.#division.id, include_recent_rounds: true },
            { signal: this.#abort.signal },
          ),
      this.#client.divisions.pairwise(
        { division_id: this.#division.id },
        { signal: this.#abort.signal },
      ),
    ]);
    if (this.#stopped) return;
    this.#update({
      ...(seeded ? {} : { standings: nextStandings(this.#snapshot.standings, rows) }),
      pairwise,
    });
  }

  /** Loads the standings again; refreshes asked for while one is under way are folded into one more. */
  #refreshStandings(): void {
    if (this.#standingsLoad) {
      this.#standingsDirty = true;
      return;
    }
    this.#standingsLoad = this.#retrying("standings", () => this.#loadStandings()).finally(() => {
      this.#standingsLoad = null;
      if (this.#standingsDirty && !this.#stopped) {
        this.#standingsDirty = false;
        this.#refreshStandings();
      }
    });
  }

  async #loadLatestRound(): Promise<void> {
    const page = await this.#client.rounds.list(
      { division_id: this.#division.id, limit: 1 },
      { signal: this.#abort.signal },
    );
    const latest = page.entries[0];
    if (latest) await this.#adoptRound(latest);
  }

  async #loadFeed(): Promise<void> {
    const events = await this.#client.competitionEvents.list(
      { league_id: this.#league.id, limit: this.#options.feedLoad ?? 200 },
      { signal: this.#abort.signal },
    );
    if (this.#stopped) return;
    this.#update({
      feed: mergeFeed(this.#snapshot.feed, events),
      episodes: mergeEvents(this.#snapshot.episodes, events, this.#isEpisode, EPISODES_LIMIT),
    });
  }

  /** Makes `round` the current round (with its episodes counted) unless a later one is shown. */
  async #adoptRound(round: Round): Promise<void> {
    if (!isSameOrLater(this.#snapshot.round, round)) return;
    const early = this.#roundLoads.get(round.id) ?? new Map<string, boolean>();
    this.#roundLoads.set(round.id, early);
    try {
      const page = await this.#client.episodeRequests.list(
        { round_id: round.id, limit: EPISODES_PAGE },
        { signal: this.#abort.signal },
      );
      if (this.#stopped || !isSameOrLater(this.#snapshot.round, round)) return;
      const current = this.#snapshot.round;
      // Keep what events already counted for this round.
      const counted = new Map(early);
      if (current?.round.id === round.id) for (const id of current.settled) counted.set(id, false);
      let progress = progressFromEpisodes(round, page.entries, page.next_cursor === null, counted);
      if (
        current?.round.id === round.id &&
        current.round.status !== round.status &&
        round.status === "running"
      )
        progress = withRoundStatus(progress, current.round.status);
      this.#update({ round: progress });
    } finally {
      this.#roundLoads.delete(round.id);
    }
  }

  /** Loads a round an event names, unless it is already shown or loading. */
  #followRound(roundId: string): void {
    if (this.#roundLoads.has(roundId)) return;
    this.#roundLoads.set(roundId, new Map());
    void this.#retrying("round", async () => {
      const round = await this.#client.rounds.get(
        { round_id: roundId },
        { signal: this.#abort.signal },
      );
      await this.#adoptRound(round);
    }).finally(() => this.#roundLoads.delete(roundId));
  }

  // Events -------------------------------------------------------------------------------

  /** A live event from the socket. */
  receive(live: LiveEvent): void {
    const parsed = CompetitionEvent.safeParse(visibleDeep(live.data));
    if (!parsed.success) {
      this.#skipSeq(live.seq);
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
      this.#notices.report(
        "warn",
        `live event #${live.seq} (${live.type}) is not a competition event${where}; skipped`,
      );
      return;
    }
    this.apply(parsed.data);
  }

  #skipSeq(seq: number): void {
    if (this.#snapshot.lastSeq === null || seq > this.#snapshot.lastSeq)
      this.#update({ lastSeq: seq });
  }

  /** Applies one event once (by seq), whether it came from the socket or a poll. */
  apply(event: CompetitionEvent): void {
    const { lastSeq } = this.#snapshot;
    if (lastSeq !== null && event.seq <= lastSeq) return;
    const patch: { -readonly [K in keyof WatchSnapshot]?: WatchSnapshot[K] } = {
      lastSeq: event.seq,
      events: this.#snapshot.events + 1,
    };
    if (event.league?.id === this.#league.id || event.division?.id === this.#division.id)
      patch.feed = mergeFeed(this.#snapshot.feed, [event]);
    if (this.#isEpisode(event))
      patch.episodes = mergeEvents(
        this.#snapshot.episodes,
        [event],
        this.#isEpisode,
        EPISODES_LIMIT,
      );
    if (event.division?.id === this.#division.id) {
      const round = this.#snapshot.round;
      switch (event.event_type) {
        case "episode_completed":
        case "episode_failed": {
          const episodeId = event.episode_request_id;
          if (event.round_id === null || episodeId === null) break;
          const failed = event.event_type === "episode_failed";
          if (round?.round.id === event.round_id)
            patch.round = withEpisodeSettled(round, episodeId, failed);
          else {
            const loading = this.#roundLoads.get(event.round_id);
            if (loading) loading.set(episodeId, failed);
            else this.#followRound(event.round_id);
          }
          break;
        }
        case "round_started":
          if (event.round_id !== null && round?.round.id !== event.round_id)
            this.#followRound(event.round_id);
          break;
        case "round_completed":
        case "round_failed":
          if (event.round_id !== null && round?.round.id === event.round_id)
            patch.round = withRoundStatus(
              round,
              event.event_type === "round_completed" ? "completed" : "failed",
            );
          else if (event.round_id !== null) this.#followRound(event.round_id);
          break;
        case "standings_changed":
          this.#refreshStandings();
          break;
        default:
          break;
      }
    }
    this.#update(patch);
  }

  // Connection ---------------------------------------------------------------------------

  async #connect(): Promise<void> {
    let since: number | undefined;
    try {
      // The newest seq now: the snapshot loads after it, so no event falls between the two.
      since = (await this.#client.events.info(undefined, { signal: this.#abort.signal })).last_seq;
    } catch (error) {
      this.#report(error, "live events");
    }
    if (this.#stopped) return;
    const start = this.#snapshot.lastSeq ?? since;
    if (start !== undefined && this.#snapshot.lastSeq === null) this.#update({ lastSeq: start });
    this.#subscribe();
  }

  #subscribe(): void {
    if (this.#stopped) return;
    const sinceSeq = this.#snapshot.lastSeq ?? undefined;
    try {
      this.#subscription = this.#client.events.subscribe(
        [`division:${this.#division.id}`, `league:${this.#league.id}`],
        {
          ...(sinceSeq !== undefined ? { sinceSeq } : {}),
          signal: this.#abort.signal,
          onEvent: (event) => this.receive(event),
          onError: (error) => this.#report(error, "live events"),
          onStatus: (status) => this.#onSocketStatus(status),
        },
      );
    } catch (error) {
      this.#report(error, "live events");
      this.#onSocketStatus("closed");
    }
  }

  #onSocketStatus(status: SubscriptionStatus): void {
    this.#socketStatus = status;
    if (this.#stopped) return;
    switch (status) {
      case "connecting":
        break;
      case "open":
        this.#recovered();
        this.#stopPolling();
        this.#update({ connection: { kind: "live" } });
        break;
      case "reconnecting":
        this.#startPolling();
        break;
      case "closed":
        // Ended for good (refused, or no WebSocket here): poll, and try a new subscription later.
        this.#subscription = null;
        this.#startPolling();
        this.#later(this.#options.resubscribeMs ?? 30_000, () => {
          if (this.#socketStatus === "closed") this.#subscribe();
        });
        break;
    }
  }

  #startPolling(): void {
    if (this.#pollTimer !== null || this.#stopped) return;
    const everyMs = pollIntervalMs(this.#client.lastBudget, undefined, this.#options.pollPace);
    this.#update({ connection: { kind: "polling", everyMs } });
    this.#pollTimer = setTimeout(() => void this.#poll(), 0);
  }

  #stopPolling(): void {
    if (this.#pollTimer !== null) clearTimeout(this.#pollTimer);
    this.#pollTimer = null;
  }

  async #poll(): Promise<void> {
    let waitAtLeast = 0;
    try {
      const events = await this.#client.competitionEvents.list(
        { league_id: this.#league.id, limit: POLL_PAGE },
        { signal: this.#abort.signal },
      );
      if (this.#pollTimer === null || this.#stopped) return;
      const lastSeq = this.#snapshot.lastSeq;
      const fresh = events
        .filter((e) => lastSeq === null || e.seq > lastSeq)
        .sort((a, b) => a.seq - b.seq);
      // A full page of unseen events may not reach back to the last one seen: load everything again.
      if (lastSeq !== null && events.length === POLL_PAGE && fresh.length === events.length)
        this.#loadAll();
      for (const event of fresh) this.apply(event);
    } catch (error) {
      this.#report(error, "polling");
      if (isRateLimitError(error)) waitAtLeast = (error.retryAfterSeconds ?? 0) * 1000;
    }
    if (this.#pollTimer === null || this.#stopped) return;
    const everyMs = Math.max(
      waitAtLeast,
      pollIntervalMs(this.#client.lastBudget, undefined, this.#options.pollPace),
    );
    const connection = this.#snapshot.connection;
    if (connection.kind !== "polling" || connection.everyMs !== everyMs)
      this.#update({ connection: { kind: "polling", everyMs } });
    this.#pollTimer = setTimeout(() => void this.#poll(), everyMs);
  }
}
