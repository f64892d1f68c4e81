// Extracts a tar.gz bundle (a coworld's or a policy's files) into a directory, refusing what
// could reach outside it or exhaust the disk: only plain files and directories, relative paths
// without `..`, bounded in count and size.
import { mkdir } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import * as tar from "tar";

export const BUNDLE_LIMITS = { maxFiles: 20_000, maxBytes: 1 << 30 };

/** The bundle cannot be used; retrying the download will not help. */
export class BundleError extends Error {
  override readonly name = "BundleError";
}

export async function extractBundle(
  bytes: Uint8Array,
  dest: string,
  limits = BUNDLE_LIMITS,
): Promise<{ files: number; bytes: number }> {
  await mkdir(dest, { recursive: true });
  let files = 0;
  let total = 0;
  let problem = null as string | null; // set inside the entry filter
  const refuse = (why: string) => {
    problem ??= why;
    return false;
  };
  try {
    await pipeline(
      Readable.from([Buffer.from(bytes)]),
      tar.x({
        cwd: dest,
        strict: true,
        preservePaths: false,
        preserveOwner: false,
        filter: (path, entry) => {
          if (problem !== null) return false;
          const type = "type" in entry ? entry.type : entry.isDirectory() ? "Directory" : "File";
          if (type !== "File" && type !== "OldFile" && type !== "Directory")
            return refuse(`${path}: a ${type} entry (bundles hold only files and directories)`);
          if (isAbsolute(path) || path.split(/[\\/]/).includes(".."))
            return refuse(`${path}: an unsafe path`);
          if (type === "Directory") return true;
          files += 1;
          total += entry.size;
          if (files > limits.maxFiles) return refuse(`more than ${limits.maxFiles} files`);
          if (total > limits.maxBytes) return refuse(`more than ${limits.maxBytes} bytes unpacked`);
          return true;
        },
      }),
    );
  } catch (error) {
    throw new BundleError(`the bundle is not a readable tar.gz: ${(error as Error).message}`);
  }
  if (problem !== null) throw new BundleError(`the bundle was refused: ${problem}`);
  return { files, bytes: total };
}
