import { describe, expect, it } from "vitest";

import { COMMISSIONER_RELAY_FRAME_BYTES } from "@gauntlet/core";

import { relayFrames } from "./relay-frames.ts";

const join = (frames: string[]) => frames.map((f) => f.slice(1)).join("");

describe("the relay's framing of a commissioner's messages", () => {
  it("sends a short message as one last piece", () => {
    expect(relayFrames('{"type":"x"}')).toEqual(['.{"type":"x"}']);
  });

  it("cuts a long message into pieces within the frame size, whole characters each", () => {
    const message = `${"é".repeat(40_000)}😀${"a".repeat(70_000)}${"😀".repeat(20_000)}`;
    const frames = relayFrames(message);
    expect(frames.length).toBeGreaterThan(3);
    for (const frame of frames) {
      expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(COMMISSIONER_RELAY_FRAME_BYTES);
      expect(frame.slice(1)).toBe(Buffer.from(frame.slice(1)).toString("utf8"));
    }
    expect(frames.slice(0, -1).every((f) => f.startsWith("+"))).toBe(true);
    expect(frames.at(-1)?.startsWith(".")).toBe(true);
    expect(join(frames)).toBe(message);
  });
});
