// Packs a directory into the tar.gz bytes the server takes for bundles (leaving out
// node_modules and build caches). `tar` is loaded only by the upload commands.
import { existsSync, statSync } from "node:fs";

import { CliError, EXIT } from "./exit-codes.ts";

export async function packDirectory(dir: string, label: string): Promise<Uint8Array> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new CliError(`${label}: '${dir}' is not a directory`, EXIT.usage);
  const tar = await import("tar");
  const chunks: Buffer[] = [];
  const stream = tar.c(
    {
      gzip: true,
      cwd: dir,
      portable: true,
      filter: (path) => !/(^|\/)(node_modules|\.git|\.turbo|coverage)(\/|$)/.test(path),
    },
    ["."],
  );
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(bytes < 104_858 ? 2 : 1)} MB`;
}
