// A cogames policy zip becomes a bundle of exactly the files it declares: its entries inflate in
// the archive worker no further than their declared sizes, and must match those sizes and CRCs.
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";

import { zipBomb } from "../../testing/zip-bomb.ts";
import { DEFAULT_TAR_BUDGETS } from "./tar-inspect.ts";
import { readTarGzFiles, zipToTarGz } from "./tarball.ts";

const CENTRAL = 0x02014b50;

/** The offset of the central directory entry of `name`. */
function centralEntry(zip: Uint8Array, name: string): number {
  const bytes = Buffer.from(zip);
  for (let at = bytes.lastIndexOf(name); at >= 0; at = bytes.lastIndexOf(name, at - 1))
    if (at >= 46 && bytes.readUInt32LE(at - 46) === CENTRAL) return at - 46;
  throw new Error(`no central directory entry for ${name}`);
}

describe("repacking a cogames zip", () => {
  it("repacks an honest zip into a bundle of byte-identical files", async () => {
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    const files: Record<string, Uint8Array> = {
      "policy_spec.json": strToU8('{"class_path": "agent.Policy"}\n'),
      "agent/__init__.py": strToU8("class Policy: ...\n".repeat(200)),
      "agent/weights.bin": binary,
      "agent/empty.txt": new Uint8Array(0),
      "données/é.txt": strToU8("accents\n"),
    };
    // Deflated, and the weights stored as they are.
    const zip = zipSync({ ...files, "agent/weights.bin": [binary, { level: 0 }] });
    const repacked = await zipToTarGz(zip);
    expect(repacked.ok, repacked.ok ? "" : repacked.error).toBe(true);
    if (!repacked.ok) return;
    const read = await readTarGzFiles(repacked.tarGz, { maxFiles: 10, maxBytes: 1 << 20 });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const unpacked = Object.fromEntries(read.files.map((f) => [f.path, Buffer.from(f.bytes)]));
    expect(unpacked).toEqual(
      Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])),
    );
  });

  it("refuses a file that is also another entry's folder, in one line", async () => {
    const zip = zipSync({ agent: strToU8("a file"), "agent/policy.py": strToU8("x = 1\n") });
    expect(await zipToTarGz(zip)).toEqual({
      ok: false,
      error: 'entry "agent" is a file and also a folder of "agent/policy.py"',
    });
  });

  it("tells a file under a folder from a sibling whose name sorts between them", async () => {
    // `a-b` sorts between `a` and `a/c` by plain order: the check must still see `a` is a folder.
    const zip = zipSync({ a: strToU8("1"), "a-b": strToU8("2"), "a/c": strToU8("3") });
    expect(await zipToTarGz(zip)).toEqual({
      ok: false,
      error: 'entry "a" is a file and also a folder of "a/c"',
    });
    const fine = zipSync({ "a-b": strToU8("2"), "a/c": strToU8("3"), "a/d/e": strToU8("4") });
    expect((await zipToTarGz(fine)).ok).toBe(true);
  });

  it("refuses a central directory of more records than the entry budget before reading it", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`d${i}/`, new Uint8Array(0)] as const),
    );
    const zip = zipSync({ ...files, "policy_spec.json": strToU8("{}") });
    expect(await zipToTarGz(zip, { ...DEFAULT_TAR_BUDGETS, maxEntries: 20 })).toEqual({
      ok: false,
      error: "the zip holds more than 20 entries",
    });
  });

  it("refuses a zip that declares 1 KiB but inflates to 200 MiB, naming the entry", async () => {
    const liar = zipBomb(1, 200 << 20, { declaredSize: 1024 });
    expect(await zipToTarGz(liar)).toEqual({
      ok: false,
      error: 'entry "zeros-0.bin" inflates to more than its declared 1024 bytes',
    });
  });

  it("refuses an entry that inflates to less than it declares", async () => {
    expect(await zipToTarGz(zipBomb(1, 1000, { declaredSize: 4096 }))).toEqual({
      ok: false,
      error: 'entry "zeros-0.bin" inflates to 1000 bytes, not its declared 4096',
    });
  });

  it("refuses an entry whose bytes do not match its CRC-32", async () => {
    // A stored file changed after it was zipped: the sizes agree, the checksum does not.
    const stored = Buffer.from(
      zipSync({ "run.py": [strToU8("print('hello')\n"), { level: 0 }], "b.py": strToU8("") }),
    );
    stored[stored.indexOf("hello")] = "j".charCodeAt(0);
    const changed = await zipToTarGz(stored);
    expect(changed.ok).toBe(false);
    expect(changed.ok ? "" : changed.error).toMatch(
      /^entry "run\.py" fails its CRC-32 check \(declared 0x[0-9a-f]{8}, its bytes 0x[0-9a-f]{8}\)$/,
    );

    // A deflated file whose directory names another checksum.
    const deflated = Buffer.from(
      zipSync({ "agent.py": strToU8("class Policy: ...\n".repeat(50)) }),
    );
    const at = centralEntry(deflated, "agent.py");
    deflated.writeUInt32LE((deflated.readUInt32LE(at + 16) ^ 1) >>> 0, at + 16);
    const forged = await zipToTarGz(deflated);
    expect(forged.ok ? "" : forged.error).toMatch(/^entry "agent\.py" fails its CRC-32 check/);
  });

  it("refuses a stored entry whose size is not its declared one, and an unknown method", async () => {
    const zip = Buffer.from(zipSync({ "a.py": [strToU8("abcdef"), { level: 0 }] }));
    const at = centralEntry(zip, "a.py");
    zip.writeUInt32LE(3, at + 24);
    expect(await zipToTarGz(zip)).toEqual({
      ok: false,
      error: 'entry "a.py" holds 6 bytes, not its declared 3',
    });
    zip.writeUInt32LE(6, at + 24);
    zip.writeUInt16LE(12, at + 10); // bzip2
    expect(await zipToTarGz(zip)).toEqual({
      ok: false,
      error: 'entry "a.py" uses compression method 12: only stored (0) and deflate (8) are read',
    });
  });
});
