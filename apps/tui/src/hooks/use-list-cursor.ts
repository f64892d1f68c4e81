// A selection in a list that the arrow keys, j/k, g/G, Home/End and Page Up/Down move, kept
// inside the list as it grows and shrinks.
import type { Key } from "ink";
import { useCallback, useState } from "react";

export interface ListCursor {
  readonly index: number;
  /** Handles a key; true when it moved (or would have moved) the selection. */
  readonly handle: (input: string, key: Key) => boolean;
  readonly set: (index: number) => void;
}

export function clampIndex(index: number, length: number): number {
  return length === 0 ? 0 : Math.min(Math.max(index, 0), length - 1);
}

export function useListCursor(length: number, page = 10): ListCursor {
  const [raw, setRaw] = useState(0);
  const index = clampIndex(raw, length);
  const handle = useCallback(
    (input: string, key: Key): boolean => {
      let next: number | null = null;
      if (key.upArrow || input === "k") next = index - 1;
      else if (key.downArrow || input === "j") next = index + 1;
      else if (key.pageUp) next = index - page;
      else if (key.pageDown) next = index + page;
      else if (key.home || input === "g") next = 0;
      else if (key.end || input === "G") next = length - 1;
      if (next === null) return false;
      setRaw(clampIndex(next, length));
      return true;
    },
    [index, length, page],
  );
  const set = useCallback((i: number) => setRaw(clampIndex(i, length)), [length]);
  return { index, handle, set };
}

/** The first row to draw so that `index` is visible in a window of `height` rows. */
export function windowStart(index: number, length: number, height: number): number {
  if (height <= 0 || length <= height) return 0;
  const half = Math.floor(height / 2);
  return Math.min(Math.max(0, index - half), length - height);
}
