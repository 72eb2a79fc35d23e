/**
 * One long JSON string of a long stdio line (a large tool result's text),
 * decoded while its bytes arrive. The raw bytes are copied into one reused
 * 1 MiB buffer and decoded a buffer at a time, so each piece of text is made
 * once, directly at its size (where a scavenge never copies it), and the pipe's
 * chunks are garbage at once. Only text with escapes is unescaped, in small
 * windows whose copies stay young. The line itself never exists as a string:
 * the text is held once, plus its pieces for the moment of the final join.
 */
import { StringDecoder } from "node:string_decoder";

const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
/** Longest escape (`\uXXXX`); a cut never falls inside one. */
const ESCAPE_BYTES = 6;
/** Bytes decoded into one piece of the text. */
const GROUP_BYTES = 1024 * 1024;
/** Bytes unescaped at once: small enough that JSON.parse's copies stay young. */
const WINDOW_BYTES = 32 * 1024;
/** A character below U+0020, which JSON does not allow raw in a string. */
const CONTROL = /[^ -\uffff]/;

export class LongString {
  private readonly decoder = new StringDecoder("utf8");
  private readonly buffer = Buffer.allocUnsafeSlow(GROUP_BYTES);
  private filled = 0;
  private groups: string[] = [];

  /** The next raw bytes between the quotes. Throws `SyntaxError` on what JSON does not allow in a string. */
  write(bytes: Buffer): void {
    for (let at = 0; at < bytes.length;) {
      const copied = bytes.copy(this.buffer, this.filled, at);
      this.filled += copied;
      at += copied;
      if (this.filled === GROUP_BYTES) this.flush(escapeBoundary(this.buffer, 0, GROUP_BYTES));
    }
  }

  /** The closing quote came: the string's value. Throws `SyntaxError` on an unfinished escape. */
  end(): string {
    this.flush(this.filled);
    const tail = this.decoder.end();
    if (tail.length > 0) this.groups.push(tail);
    const groups = this.groups;
    this.groups = [];
    return groups.length === 1 ? groups[0]! : groups.join("");
  }

  /** Decodes the buffer's bytes up to `cut`; what follows (an escape's start) moves to the front. */
  private flush(cut: number): void {
    const bytes = this.buffer.subarray(0, cut);
    const group = bytes.includes(BACKSLASH) ? this.unescaped(bytes) : this.plain(bytes);
    if (group.length > 0) this.groups.push(group);
    this.buffer.copy(this.buffer, 0, cut, this.filled);
    this.filled -= cut;
  }

  /** Text without escapes: as decoded (JSON.parse would refuse a raw control character). */
  private plain(bytes: Buffer): string {
    const text = this.decoder.write(bytes);
    if (CONTROL.test(text)) throw new SyntaxError("a raw control character in a JSON string");
    return text;
  }

  /** Text with escapes, unescaped by `JSON.parse` a window at a time. */
  private unescaped(bytes: Buffer): string {
    const pieces: string[] = [];
    for (let start = 0; start < bytes.length;) {
      const cut = escapeBoundary(bytes, start, Math.min(bytes.length, start + WINDOW_BYTES));
      if (cut === start) throw new SyntaxError("an unfinished escape in a JSON string");
      const text = this.decoder.write(bytes.subarray(start, cut));
      if (text.length > 0) pieces.push(JSON.parse(`"${text}"`) as string);
      start = cut;
    }
    return pieces.join("");
  }
}

/**
 * The last index at or before `to` where `data[from..]` can be cut without
 * splitting an escape. `from` is itself such a boundary, so a run of
 * backslashes pairs up from its first one.
 */
export function escapeBoundary(data: Buffer, from: number, to: number): number {
  const last = data.lastIndexOf(BACKSLASH, to - 1);
  if (last < from || last < to - ESCAPE_BYTES) return to;
  let first = last;
  while (first > from && data[first - 1] === BACKSLASH) first -= 1;
  // An even run is all escaped backslashes: the last one ends an escape.
  if ((last - first) % 2 === 1) return to;
  if (last + 1 >= to) return last;
  if (data[last + 1] === LETTER_U && last + ESCAPE_BYTES > to) return last;
  return to;
}
