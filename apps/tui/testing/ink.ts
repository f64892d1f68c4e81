// Driving Ink components in tests: ink-testing-library's render at a chosen terminal size, keys
// by name, and waiting for a frame (never for a fixed time).
import { render } from "ink-testing-library";
import type { ReactElement } from "react";

export const KEYS = {
  up: "\u001B[A",
  down: "\u001B[B",
  right: "\u001B[C",
  left: "\u001B[D",
  enter: "\r",
  escape: "\u001B",
  tab: "\t",
  shiftTab: "\u001B[Z",
  backspace: "\u007F",
  ctrlC: "\u0003",
} as const;

export type Rendered = ReturnType<typeof render> & {
  frame: () => string;
  press: (...keys: string[]) => Promise<void>;
  waitFor: (what: string, probe: (frame: string) => boolean, timeoutMs?: number) => Promise<string>;
  resize: (columns: number, rows: number) => void;
};

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Renders `tree` in a terminal of `columns` × `rows`. */
export function renderAt(tree: ReactElement, columns = 120, rows = 40): Rendered {
  const rendered = render(tree);
  const resize = (c: number, r: number) => {
    Object.defineProperty(rendered.stdout, "columns", { value: c, configurable: true });
    Object.defineProperty(rendered.stdout, "rows", { value: r, configurable: true });
    rendered.stdout.emit("resize");
  };
  resize(columns, rows);
  const frame = () => rendered.lastFrame() ?? "";
  return {
    ...rendered,
    frame,
    resize,
    async press(...keys: string[]) {
      for (const key of keys) {
        rendered.stdin.write(key);
        // A lone Escape is told apart from the start of a sequence by what follows, so each key gets a moment.
        await tick();
      }
    },
    // The deadline only turns a hang into a message: generous for a busy machine.
    async waitFor(what, probe, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = frame();
        if (probe(current)) return current;
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; last frame:\n${current}`);
        await tick();
      }
    },
  };
}

/** Each line of a frame, without trailing spaces. */
export function lines(frame: string): string[] {
  return frame.split("\n").map((l) => l.trimEnd());
}
