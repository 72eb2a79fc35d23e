/**
 * A large string in slices for writing. A stream converts a string to bytes
 * whole before writing it, so a 50 MB text written in one piece is held as
 * text and bytes at once; a slice of a flat string is no copy, and each
 * slice's bytes are gone once written.
 */

/** UTF-16 units per slice: large enough that the number of writes does not matter. */
export const TEXT_SLICE_UNITS = 1 << 20;

/** A slice end that does not split a surrogate pair (which would print two U+FFFD). */
function sliceEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const unit = text.charCodeAt(end - 1);
  return unit >= 0xd800 && unit <= 0xdbff ? end - 1 : end;
}

/** `text` in slices of at most `TEXT_SLICE_UNITS` units, none ending inside a surrogate pair. */
export function* textSlices(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    const end = sliceEnd(text, start + TEXT_SLICE_UNITS);
    yield text.slice(start, end);
    start = end;
  }
}
