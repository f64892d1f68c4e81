// A zip bomb for tests and bench archives: small to send, huge unpacked.
import { crc32 } from "node:zlib";

import { deflateSync } from "fflate";

/**
 * A zip bomb as the finding's: `count` entries that each declare and inflate to `size` zero bytes,
 * from one deflated stream repeated (about 16 KB each for 16 MiB): small to send, huge unpacked.
 */
export function zipBomb(count: number, size: number): Uint8Array {
  const zeros = new Uint8Array(size);
  const packed = deflateSync(zeros, { level: 9 });
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
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.byteLength, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed.byteLength, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.byteLength, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(packed));
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
