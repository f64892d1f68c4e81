// While the UI owns the terminal, anything a library prints with console.* would scribble over
// the screen: it goes to the status line instead, until the returned function restores console.
import { format } from "node:util";

import type { NoticeLevel, Notices } from "./notices.ts";

const METHODS = {
  log: "info",
  info: "info",
  debug: "info",
  warn: "warn",
  error: "error",
} as const satisfies Record<string, NoticeLevel>;

export function routeConsole(notices: Notices): () => void {
  const saved = new Map<keyof typeof METHODS, (...args: unknown[]) => void>();
  for (const [method, level] of Object.entries(METHODS) as [keyof typeof METHODS, NoticeLevel][]) {
    // Saved to be put back as it was, on the console object: never called unbound.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    saved.set(method, console[method]);
    console[method] = (...args: unknown[]) => notices.report(level, format(...args));
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}
