// The `/` filter of a list: `/` starts typing, letters edit, Enter keeps the filter, Esc clears
// it. While typing, the app's own keys (q, ?) are text; the app learns it through TypingContext.
import type { Key } from "ink";
import { createContext, useCallback, useContext, useEffect, useState } from "react";

/** Told whether a text field has the keys. */
export const TypingContext = createContext<(typing: boolean) => void>(() => undefined);

export interface TextFilter {
  readonly text: string;
  readonly typing: boolean;
  /** Handles a key; true when the filter used it. */
  readonly handle: (input: string, key: Key) => boolean;
  readonly matches: (...fields: string[]) => boolean;
}

/** Typed text, not a control key. */
function isPrintable(input: string): boolean {
  return input.length > 0 && [...input].every((c) => c >= " " && c !== "\u007f");
}

export function useTextFilter(): TextFilter {
  const [text, setText] = useState("");
  const [typing, setTyping] = useState(false);
  const tell = useContext(TypingContext);
  useEffect(() => {
    tell(typing);
  }, [typing, tell]);
  useEffect(() => () => tell(false), [tell]);

  const handle = useCallback(
    (input: string, key: Key): boolean => {
      if (!typing) {
        if (input !== "/") return false;
        setTyping(true);
        return true;
      }
      if (key.escape) {
        setText("");
        setTyping(false);
      } else if (key.return) setTyping(false);
      else if (key.backspace || key.delete) setText((t) => t.slice(0, -1));
      else if (!key.ctrl && !key.meta && isPrintable(input)) setText((t) => t + input);
      return true;
    },
    [typing],
  );
  const matches = useCallback(
    (...fields: string[]) => {
      const wanted = text.trim().toLowerCase();
      return wanted === "" || fields.some((f) => f.toLowerCase().includes(wanted));
    },
    [text],
  );
  return { text, typing, handle, matches };
}
