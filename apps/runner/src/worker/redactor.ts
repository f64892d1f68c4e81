// Keeps secret values out of what the runner writes: its own log lines, the logs it uploads
// and the error texts it reports. A value is known while a job that carries it is running.

/** Values shorter than this are left alone: redacting "1" or "on" would garble every log. */
export const MIN_REDACTED_LENGTH = 4;
export const REDACTED = "[redacted]";

export class Redactor {
  readonly #counts = new Map<string, number>();

  /** Registers values for the time of one job; the returned function forgets them again. */
  hold(values: Iterable<string>): () => void {
    const held = [...new Set(values)].filter((v) => v.length >= MIN_REDACTED_LENGTH);
    for (const value of held) this.#counts.set(value, (this.#counts.get(value) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const value of held) {
        const left = (this.#counts.get(value) ?? 1) - 1;
        if (left <= 0) this.#counts.delete(value);
        else this.#counts.set(value, left);
      }
    };
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so that a secret containing another is replaced whole.
    for (const value of [...this.#counts.keys()].sort((a, b) => b.length - a.length)) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    return out;
  }
}
