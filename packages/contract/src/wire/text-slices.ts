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

/** `text` in slices of at most `units` UTF-16 units, none ending inside a surrogate pair. */
export function* textSlices(text: string, units = TEXT_SLICE_UNITS): Generator<string> {
  for (let start = 0; start < text.length;) {
    const end = sliceEnd(text, start + units);
    yield text.slice(start, end);
    start = end;
  }
}

/** What `writeSlices` needs of its output: a Node `Writable` is one. */
export interface SliceOutput {
  write(chunk: string): boolean;
  once(event: "drain" | "close" | "error", listener: () => void): unknown;
  off(event: "drain" | "close" | "error", listener: () => void): unknown;
  readonly destroyed: boolean;
}

/**
 * Writes `text` slice by slice, each once the output has taken the one
 * before: a pipe that cannot take a write at once queues its bytes (three
 * per UTF-16 unit reserved), so slices written all at once are held again
 * whole. Resolves when the last slice is handed over, or when the output
 * breaks or closes (a reader that went away must not hang the writer).
 */
export async function writeSlices(out: SliceOutput, text: string): Promise<void> {
  for (const slice of textSlices(text)) {
    if (out.destroyed) return;
    if (!out.write(slice)) await drained(out);
  }
}

/** Resolves once `out` takes more, or can take nothing more. */
function drained(out: SliceOutput): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      out.off("error", done);
      resolve();
    };
    out.once("drain", done);
    out.once("close", done);
    out.once("error", done);
  });
}
