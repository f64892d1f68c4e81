// The text of a post, comment or wiki page: given inline (--body) or read from a file
// (--file PATH, `-` for standard input); exactly one of the two.
import { readFileSync } from "node:fs";

import { CliError, EXIT } from "./exit-codes.ts";

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliError(
      "--file - reads the text from standard input: pipe it in (… < text.md)",
      EXIT.usage,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function textOf(
  opts: { body?: string; file?: string },
  what: string,
): Promise<string> {
  if ((opts.body === undefined) === (opts.file === undefined))
    throw new CliError(
      `${what}: give the text with --body TEXT or --file PATH (- for standard input), one of the two`,
      EXIT.usage,
    );
  if (opts.body !== undefined) return opts.body;
  const path = opts.file ?? "-";
  if (path === "-") return readStdin();
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new CliError(`--file: cannot read '${path}'`, EXIT.usage);
  }
}
