// Where a command writes: its standard output and error and whether they are terminals. Commands
// take these instead of reaching for `process`, so a test can run one and read what it printed.

/** One output stream: what a command writes to, and whether a person is looking at it. */
export interface OutStream {
  write(text: string): void;
  readonly isTTY: boolean;
}

export interface IOStreams {
  out: OutStream;
  err: OutStream;
  /** Whether standard output is a terminal (colour, tables for people). */
  isTTY: boolean;
  /** The terminal's width, or null when standard output is not a terminal. */
  columns: number | null;
}

function processStream(stream: NodeJS.WriteStream): OutStream {
  return {
    write: (text) => void stream.write(text),
    get isTTY() {
      return stream.isTTY === true;
    },
  };
}

/** The process's own streams (the `gauntlet` executable). */
export function systemIO(): IOStreams {
  return {
    out: processStream(process.stdout),
    err: processStream(process.stderr),
    isTTY: process.stdout.isTTY === true,
    columns: process.stdout.isTTY === true ? process.stdout.columns : null,
  };
}

/** Streams held in memory, read back with `stdout()` and `stderr()` (tests, embedding). */
export interface MemoryIO extends IOStreams {
  stdout(): string;
  stderr(): string;
}

export function memoryIO(options: { isTTY?: boolean; columns?: number } = {}): MemoryIO {
  const isTTY = options.isTTY === true;
  let out = "";
  let err = "";
  return {
    out: { write: (text) => void (out += text), isTTY },
    err: { write: (text) => void (err += text), isTTY },
    isTTY,
    columns: isTTY ? (options.columns ?? 80) : null,
    stdout: () => out,
    stderr: () => err,
  };
}
