// A zip's central directory read without inflating anything: each entry's name, method, declared
// sizes and CRC-32, and where its packed bytes lie. The directory is what a zip declares; the
// caller checks those declarations against budgets and then the inflated bytes against them.
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate; anything else is refused by the caller. */
  method: number;
  encrypted: boolean;
  crc32: number;
  packedSize: number;
  /** The uncompressed size the directory declares. */
  size: number;
  /** Where the entry's packed bytes start (past its local header). */
  dataStart: number;
}

export type ZipDirectory = { ok: true; entries: ZipEntry[] } | { ok: false; error: string };

const END = 0x06054b50;
const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

class NotAZip extends Error {}

function bytesView(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const inside = (at: number, length: number) => {
    if (at < 0 || length < 0 || at + length > bytes.byteLength)
      throw new NotAZip(`a record at byte ${at} runs past the end`);
  };
  return {
    u16: (at: number) => (inside(at, 2), view.getUint16(at, true)),
    u32: (at: number) => (inside(at, 4), view.getUint32(at, true)),
    u64: (at: number) => {
      inside(at, 8);
      const value = view.getBigUint64(at, true);
      if (value > BigInt(Number.MAX_SAFE_INTEGER))
        throw new NotAZip(`a size at byte ${at} is too large`);
      return Number(value);
    },
    slice: (at: number, length: number) => (inside(at, length), bytes.subarray(at, at + length)),
  };
}

/** The end-of-directory record's place: the last signature within a comment's reach of the end. */
function findEnd(bytes: Uint8Array, u32: (at: number) => number): number {
  const last = bytes.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) if (u32(at) === END) return at;
  throw new NotAZip("no end of central directory record");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The zip's central directory; refused before it is read when it holds more than `maxRecords`. */
export function readZipDirectory(bytes: Uint8Array, maxRecords: number): ZipDirectory {
  try {
    return { ok: true, entries: entriesOf(bytes, maxRecords) };
  } catch (error) {
    if (error instanceof NotAZip) return { ok: false, error: `not a zip: ${error.message}` };
    if (error instanceof TooManyRecords) return { ok: false, error: error.message };
    throw error;
  }
}

/** Thrown for a zip whose directory holds more records than allowed. */
class TooManyRecords extends Error {}

function entriesOf(bytes: Uint8Array, maxRecords: number): ZipEntry[] {
  const { u16, u32, u64, slice } = bytesView(bytes);
  const end = findEnd(bytes, u32);
  let count = u16(end + 10);
  let at = u32(end + 16);
  // Zip64: the counts and offset that do not fit are in the zip64 end record.
  if ((count === 0xffff || at === 0xffffffff) && end >= 20 && u32(end - 20) === END64_LOCATOR) {
    const end64 = u64(end - 12);
    if (u32(end64) !== END64) throw new NotAZip("the zip64 end record is missing");
    count = u64(end64 + 32);
    at = u64(end64 + 48);
  }
  if (count > maxRecords) throw new TooManyRecords(`the zip holds more than ${maxRecords} entries`);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (u32(at) !== CENTRAL)
      throw new NotAZip(`central directory entry ${i} is not where it should be`);
    const flags = u16(at + 8);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const rawName = slice(at + 46, nameLength);
    let name: string;
    try {
      // Bit 11: the name is UTF-8; otherwise it is read byte for byte.
      name =
        flags & 0x800
          ? utf8.decode(rawName)
          : Buffer.from(rawName.buffer, rawName.byteOffset, rawName.byteLength).toString("latin1");
    } catch {
      throw new NotAZip(`central directory entry ${i}'s name is not valid UTF-8`);
    }
    let packedSize = u32(at + 20);
    let size = u32(at + 24);
    let local = u32(at + 42);
    // A field at its maximum holds its value in the zip64 extra field, in this order.
    if (packedSize === 0xffffffff || size === 0xffffffff || local === 0xffffffff) {
      const extraEnd = at + 46 + nameLength + extraLength;
      for (let x = at + 46 + nameLength; x + 4 <= extraEnd; x += 4 + u16(x + 2)) {
        if (u16(x) !== 1) continue;
        let field = x + 4;
        const next = () => ((field += 8), u64(field - 8));
        if (size === 0xffffffff) size = next();
        if (packedSize === 0xffffffff) packedSize = next();
        if (local === 0xffffffff) local = next();
        break;
      }
    }
    if (u32(local) !== LOCAL)
      throw new NotAZip(`entry ${JSON.stringify(name)} has no local header`);
    const dataStart = local + 30 + u16(local + 26) + u16(local + 28);
    slice(dataStart, packedSize); // its packed bytes lie within the zip
    entries.push({
      name,
      method: u16(at + 10),
      encrypted: (flags & 1) === 1,
      crc32: u32(at + 16),
      packedSize,
      size,
      dataStart,
    });
    at += 46 + nameLength + extraLength + u16(at + 32);
  }
  return entries;
}
