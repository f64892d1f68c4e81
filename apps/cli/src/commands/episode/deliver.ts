// Downloaded bytes: to `output` (saying so on stderr), else to standard output as they are.
import { writeFileSync } from "node:fs";

import type { IOStreams } from "../../io.ts";
import { writeNote } from "../../output.ts";

export function deliver(io: IOStreams, bytes: Uint8Array, output: string | null): void {
  if (output) {
    writeFileSync(output, bytes);
    writeNote(io, `wrote ${bytes.byteLength} bytes to ${output}`);
  } else io.out.write(bytes);
}
