// A one-line spinner on standard error while the CLI waits; nothing at all when standard
// error is not a terminal (pipes, CI), so scripts see only the result.
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface Spinner {
  text(message: string): void;
  stop(): void;
}

/** Where a spinner draws: the process's standard error, or a command's `io.err`. */
export interface SpinnerStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export function startSpinner(message: string, stream: SpinnerStream = process.stderr): Spinner {
  if (!stream.isTTY) return { text: () => undefined, stop: () => undefined };
  let current = message;
  let frame = 0;
  const draw = () => {
    stream.write(`\r\u001b[2K${FRAMES[frame % FRAMES.length] ?? ""} ${current}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, 80);
  timer.unref();
  return {
    text(next) {
      current = next;
    },
    stop() {
      clearInterval(timer);
      stream.write("\r\u001b[2K");
    },
  };
}

/** Runs `work` with a spinner that is always stopped afterwards. */
export async function withSpinner<T>(
  message: string,
  work: (spinner: Spinner) => Promise<T>,
  stream: SpinnerStream = process.stderr,
): Promise<T> {
  const spinner = startSpinner(message, stream);
  try {
    return await work(spinner);
  } finally {
    spinner.stop();
  }
}
