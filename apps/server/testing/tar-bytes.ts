// Test and benchmark support: tar archives written byte by byte, so a test can make what no
// well-behaved packer makes (links, backslashes, 5,000-character names, `..`, bombs).
import { gzipSync } from "node:zlib";

export interface RawEntry {
  path: string;
  /** `0` file, `5` directory, `2` symbolic link, `1` hard link, `3` character device. */
  type?: "0" | "1" | "2" | "3" | "5";
  body?: Buffer;
  /** The size the header claims (default: the body's). */
  size?: number;
  linkTarget?: string;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

/** One 512-byte ustar header (names longer than 100 bytes go in a pax record before it). */
function header(path: string, type: string, size: number, linkTarget = ""): Buffer {
  const h = Buffer.alloc(512);
  h.write(path.slice(0, 100), 0, "utf8");
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  // Sizes past the octal field's reach use the base-256 form, as GNU tar does.
  if (size < 8 ** 11) h.write(octal(size, 12), 124);
  else {
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 128);
  }
  h.write(octal(0, 12), 136);
  h.write("        ", 148);
  h.write(type, 156);
  h.write(linkTarget.slice(0, 100), 157);
  h.write("ustar\0", 257);
  h.write("00", 263);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + " ", 148);
  return h;
}

const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = body.length + 1;
  while (String(len).length + body.length !== len) len = String(len).length + body.length;
  return `${len}${body}`;
}

/** The uncompressed tar bytes of `entries`, without the closing zero blocks when `open`. */
export function tarBytes(entries: RawEntry[], open = false): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = e.body ?? Buffer.alloc(0);
    if (Buffer.byteLength(e.path) > 100) {
      const pax = Buffer.from(paxRecord("path", e.path));
      parts.push(header("PaxHeader", "x", pax.length), pad(pax));
    }
    parts.push(header(e.path, e.type ?? "0", e.size ?? body.length, e.linkTarget), pad(body));
  }
  if (!open) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const tarGz = (entries: RawEntry[]) => gzipSync(tarBytes(entries));

/**
 * A gzip bomb of `members` gzip members: the first holds a file header claiming
 * `members × chunkBytes` bytes and the first chunk of zeros, each other member another chunk.
 * One chunk is compressed once and repeated, so a 10 MiB bomb takes a second to make.
 */
export function gzipBomb(chunkBytes: number, members: number): Buffer {
  const zeros = gzipSync(Buffer.alloc(chunkBytes), { level: 9 });
  const first = gzipSync(
    Buffer.concat([header("zeros.bin", "0", chunkBytes * members), Buffer.alloc(chunkBytes)]),
    { level: 9 },
  );
  return Buffer.concat([first, ...Array.from({ length: members - 1 }, () => zeros)]);
}
