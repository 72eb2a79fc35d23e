/**
 * One long line decoded to text as its bytes arrive, so each pipe chunk is
 * garbage as soon as it is read: a 50 MB result is never held as chunks, the
 * joined bytes and the line at once. The line is still handed to `JSON.parse`
 * whole, which is an order of magnitude faster than any JavaScript streaming
 * parser (a slow parse of a long answer let deadlines expire while it was
 * arriving).
 */
import { StringDecoder } from "node:string_decoder";

/** What became of one line of stdout. */
export type Line = { readonly kind: "text"; readonly text: string } | { readonly kind: "blank" };

export class LongLine {
  private readonly decoder = new StringDecoder("utf8");
  private parts: string[] = [];

  /** Decodes the next bytes of the line (a character split across chunks waits for its rest). */
  write(bytes: Buffer): void {
    const text = this.decoder.write(bytes);
    if (text.length > 0) this.parts.push(text);
  }

  /** The line is complete: its text as one flat string, without a trailing CR. */
  end(): Line {
    const tail = this.decoder.end();
    if (tail.length > 0) this.parts.push(tail);
    const parts = this.parts;
    this.parts = [];
    let text = parts.join("");
    // The pieces are garbage from here, before the line is parsed.
    parts.length = 0;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    return text.length === 0 ? { kind: "blank" } : { kind: "text", text };
  }
}
