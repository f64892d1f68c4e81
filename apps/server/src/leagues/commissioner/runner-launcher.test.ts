// A session's unread messages are bounded: a commissioner that sends faster than the driver reads
// ends its session as oversized instead of growing the replica's memory.
import { describe, expect, it } from "vitest";

import { CommissionerFailure } from "./channel.ts";
import { Inbox, INBOX_MAX_CHARS } from "./runner-launcher.ts";

describe("a commissioner session's inbox", () => {
  it("hands messages on in order while they are read", async () => {
    const inbox = new Inbox();
    inbox.put('{"n":1}');
    inbox.put('{"n":2}');
    expect(await inbox.next(100)).toEqual({ n: 1 });
    expect(await inbox.next(100)).toEqual({ n: 2 });
  });

  it("ends the session as oversized past what it holds unread", async () => {
    const inbox = new Inbox();
    const piece = `"${"x".repeat(1024 * 1024)}"`;
    for (let held = 0; held <= INBOX_MAX_CHARS; held += piece.length) inbox.put(piece);
    const failure = await inbox.ended;
    expect(failure).toBeInstanceOf(CommissionerFailure);
    expect(failure.kind).toBe("oversized");
    await expect(inbox.next(100)).rejects.toThrow(/unread/);
  });

  // An empty message (a bare "." frame from the runner) has no characters: counted by its length
  // alone, a flood of them queued without end, a slot and a string each.
  it("counts each message, not only its characters: a flood of empty ones ends the session", async () => {
    const inbox = new Inbox();
    for (let i = 0; i < 2_000_000 && inbox.failure === null; i += 1) inbox.put("");
    expect(inbox.failure?.kind).toBe("oversized");
  });
});
