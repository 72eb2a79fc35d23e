/**
 * Writes a large string in slices. A stream converts a string to bytes whole
 * before writing it, so a 50 MB tool result printed in one write holds its
 * text and a 50 MB copy of it at once; a slice of a flat string is no copy,
 * and each slice's bytes are gone once written.
 */
import type { Writable } from "node:stream";

/** UTF-16 units per write: large enough that the number of writes does not matter. */
const SLICE = 1 << 20;

/** A slice end that does not split a surrogate pair (which would print two U+FFFD). */
function sliceEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const unit = text.charCodeAt(end - 1);
  return unit >= 0xd800 && unit <= 0xdbff ? end - 1 : end;
}

/** Writes `text` to `out`, in slices when it is large. */
export function writeText(out: Writable, text: string): void {
  if (text.length <= SLICE) {
    out.write(text);
    return;
  }
  for (let start = 0; start < text.length;) {
    const end = sliceEnd(text, start + SLICE);
    out.write(text.slice(start, end));
    start = end;
  }
}
