/**
 * Writes a large string in slices (see `textSlices`): a 50 MB tool result
 * printed in one write would be held as its text and a 50 MB copy at once.
 */
import type { Writable } from "node:stream";
import { TEXT_SLICE_UNITS, textSlices } from "@indus/contract";

/** Writes `text` to `out`, in slices when it is large. */
export function writeText(out: Writable, text: string): void {
  if (text.length <= TEXT_SLICE_UNITS) {
    out.write(text);
    return;
  }
  for (const slice of textSlices(text)) out.write(slice);
}
