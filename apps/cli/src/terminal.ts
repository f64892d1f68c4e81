// Colour and interactivity: colour only on a terminal and never with NO_COLOR (or TERM=dumb);
// spinners only when standard error is a terminal.

/** Anything that knows whether it is a terminal: a process stream or an IOStreams stream. */
export interface MaybeTerminal {
  readonly isTTY?: boolean;
}

export function colourEnabled(stream: MaybeTerminal = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (process.env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

function wrap(open: number, close: number) {
  return (text: string, stream: MaybeTerminal = process.stdout): string =>
    colourEnabled(stream) ? `\u001b[${open}m${text}\u001b[${close}m` : text;
}

export const bold = wrap(1, 22);
export const dim = wrap(2, 22);
export const green = wrap(32, 39);
export const red = wrap(31, 39);
export const yellow = wrap(33, 39);
