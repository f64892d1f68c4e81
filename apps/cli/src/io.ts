// Where a command writes: its standard output and error and whether they are terminals. Commands
// take these instead of reaching for `process`, so a test can run one and read what it printed.

/** One output stream: what a command writes to, and whether a person is looking at it. */
export interface OutStream {
  /** Text, or bytes as they are (downloads). */
  write(chunk: string | Uint8Array): void;
  readonly isTTY: boolean;
}

/** Standard input: text piped or pasted in (a token, a post's body). */
export interface InStream {
  /** Everything until the end of the input, as UTF-8 text. */
  readAll(): Promise<string>;
  /** Everything until the end of the input, byte for byte (a secret, an HTML report). */
  readBytes(): Promise<Uint8Array>;
  readonly isTTY: boolean;
}

export interface IOStreams {
  in: InStream;
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

function processInput(): InStream {
  const readBytes = async (): Promise<Uint8Array> => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  };
  return {
    readBytes,
    readAll: async () => Buffer.from(await readBytes()).toString("utf8"),
    get isTTY() {
      return process.stdin.isTTY === true;
    },
  };
}

/** The process's own streams (the `gauntlet` executable). */
export function systemIO(): IOStreams {
  return {
    in: processInput(),
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

export function memoryIO(
  options: { isTTY?: boolean; columns?: number; input?: string } = {},
): MemoryIO {
  const isTTY = options.isTTY === true;
  const input = options.input;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (chunks: Buffer[]) => (chunk: string | Uint8Array) =>
    void chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
  return {
    // No input given stands for a terminal nobody types into.
    in: {
      readAll: () => Promise.resolve(input ?? ""),
      readBytes: () => Promise.resolve(new Uint8Array(Buffer.from(input ?? "", "utf8"))),
      isTTY: input === undefined,
    },
    out: { write: sink(out), isTTY },
    err: { write: sink(err), isTTY },
    isTTY,
    columns: isTTY ? (options.columns ?? 80) : null,
    stdout: () => Buffer.concat(out).toString("utf8"),
    stderr: () => Buffer.concat(err).toString("utf8"),
  };
}
