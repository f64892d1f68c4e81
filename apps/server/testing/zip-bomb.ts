// A zip bomb for tests and bench archives: small to send, huge unpacked.
import { crc32, deflateRawSync } from "node:zlib";

/**
 * A zip bomb as the finding's: `count` entries that each inflate to `size` zero bytes, from one
 * deflated stream repeated (about 16 KB each for 16 MiB, 200 KB for 200 MiB): small to send,
 * huge unpacked. Each declares `size` in its headers, or `declaredSize` for a zip that lies.
 */
export function zipBomb(
  count: number,
  size: number,
  { declaredSize = size }: { declaredSize?: number } = {},
): Uint8Array {
  const zeros = Buffer.alloc(size);
  const packed = deflateRawSync(zeros, { level: 9 });
  const crc = crc32(zeros);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(`zeros-${i}.bin`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.byteLength, 18);
    local.writeUInt32LE(declaredSize, 22);
    local.writeUInt16LE(name.byteLength, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed.byteLength, 20);
    entry.writeUInt32LE(declaredSize, 24);
    entry.writeUInt16LE(name.byteLength, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(entry, name);
    offset += local.byteLength + name.byteLength + packed.byteLength;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
