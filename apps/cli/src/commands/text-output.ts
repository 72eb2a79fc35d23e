/**
 * Writes a large string in slices (see `writeSlices`): a 50 MB tool result
 * printed in one write, or in slices all written at once to a pipe, would be
 * held as its text and once more as queued bytes.
 */
import type { Writable } from "node:stream";
import { TEXT_SLICE_UNITS, writeSlices } from "@indus/contract";

/** Writes `text` to `out`, in slices when it is large; resolves once the last slice is handed over. */
export async function writeText(out: Writable, text: string): Promise<void> {
  if (text.length <= TEXT_SLICE_UNITS) {
    out.write(text);
    return;
  }
  await writeSlices(out, text);
}
