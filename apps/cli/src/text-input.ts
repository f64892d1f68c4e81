// The text of a post, comment or wiki page: given inline (--body) or read from a file
// (--file PATH, `-` for standard input); exactly one of the two. Parsing picks the source; the
// command's run reads it, from the input stream it was given.
import { readFileSync } from "node:fs";

import { CliError, EXIT } from "./exit-codes.ts";
import type { IOStreams } from "./io.ts";

/** Where a command's text comes from. */
export type TextSource = { body: string } | { file: string };

export function textSourceOf(opts: { body?: string; file?: string }, what: string): TextSource {
  if (opts.body !== undefined && opts.file === undefined) return { body: opts.body };
  if (opts.file !== undefined && opts.body === undefined) return { file: opts.file };
  throw new CliError(
    `${what}: give the text with --body TEXT or --file PATH (- for standard input), one of the two`,
    EXIT.usage,
  );
}

export async function readText(source: TextSource, io: IOStreams): Promise<string> {
  if ("body" in source) return source.body;
  if (source.file === "-") {
    if (io.in.isTTY)
      throw new CliError(
        "--file - reads the text from standard input: pipe it in (… < text.md)",
        EXIT.usage,
      );
    return io.in.readAll();
  }
  try {
    return readFileSync(source.file, "utf8");
  } catch {
    throw new CliError(`--file: cannot read '${source.file}'`, EXIT.usage);
  }
}
