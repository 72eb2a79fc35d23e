/**
 * One long line parsed as its bytes arrive, so a large result is never held as
 * the line and its value at once. Each chunk is scanned for strings (native
 * `indexOf` for quotes and backslashes) in the data event that brought it, so
 * no work waits past the line's last chunk: a string longer than 64 KiB (a
 * result's text) is decoded apart (`LongString`) and stands in the line as a
 * marker; the rest, the line's small structure, goes to `JSON.parse` at the
 * newline, and the markers are replaced by their strings. A JavaScript
 * tokenizer of the whole line was tens of times slower than `JSON.parse` and
 * let deadlines expire while a long answer arrived.
 */
import { randomBytes } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { LongString } from "./long-string";
import { restoreLongStrings } from "./restore-long-strings";

/** What became of one line of stdout. */
export type Line =
  | { readonly kind: "text"; readonly text: string }
  /** A long line, parsed while it arrived. */
  | { readonly kind: "value"; readonly value: unknown; readonly head: string }
  /** A long line that is not JSON, by its first characters. */
  | { readonly kind: "garbage"; readonly head: string }
  | { readonly kind: "blank" };

/** Strings longer than this many bytes are decoded apart from the line. */
export const LONG_STRING_BYTES = 64 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEAD_BYTES = 1024;

export class LongLine {
  private readonly structure = new StringDecoder("utf8");
  private parts: string[] = [];
  private head: Buffer[] = [];
  private headBytes = 0;
  /** Inside a string that the last chunk did not close. */
  private inString = false;
  /** The last chunk ended on an escape's backslash. */
  private escaped = false;
  /** The open string's bytes so far, while it is short. */
  private open: Buffer[] = [];
  private openBytes = 0;
  private long: LongString | undefined;
  private longs: string[] = [];
  private readonly marker = `indus-long-${randomBytes(12).toString("hex")}-`;
  private broken = false;
  /** The current chunk and the next backslash in it at or after the scan (-1: none). */
  private chunk: Buffer = Buffer.alloc(0);
  private slash = -1;

  /** Scans the next bytes of the line. */
  write(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.keepHead(bytes);
    if (this.broken) return;
    try {
      this.scan(bytes);
    } catch {
      this.breakLine();
    } finally {
      this.chunk = Buffer.alloc(0);
    }
  }

  /** The line is complete: its value, or why not. */
  end(): Line {
    if (this.inString) this.breakLine();
    if (this.broken) return { kind: "garbage", head: this.headText() };
    const tail = this.structure.end();
    const text = (tail.length > 0 ? [...this.parts, tail] : this.parts).join("");
    this.parts = [];
    const longs = this.longs;
    this.longs = [];
    if (longs.length === 0 && text.trim().length === 0) return { kind: "blank" };
    try {
      const value = restoreLongStrings(JSON.parse(text), this.marker, longs);
      return { kind: "value", value, head: this.headText() };
    } catch {
      return { kind: "garbage", head: this.headText() };
    }
  }

  private scan(bytes: Buffer): void {
    this.chunk = bytes;
    this.slash = bytes.indexOf(BACKSLASH);
    let run = 0;
    let next = 0;
    if (this.inString) {
      const skip = this.escaped ? 1 : 0;
      this.escaped = false;
      const close = this.closingQuote(skip);
      if (close === -1) return this.stillOpen(bytes);
      next = close + 1;
      run = this.closeOpen(bytes.subarray(0, close)) ? next : 0;
    }
    for (let quote = bytes.indexOf(QUOTE, next); quote !== -1; quote = bytes.indexOf(QUOTE, next)) {
      const close = this.closingQuote(quote + 1);
      if (close === -1) {
        this.toStructure(bytes.subarray(run, quote));
        this.inString = true;
        return this.stillOpen(bytes.subarray(quote + 1));
      }
      if (close - quote - 1 > LONG_STRING_BYTES) {
        this.toStructure(bytes.subarray(run, quote));
        this.addLong(bytes.subarray(quote + 1, close));
        run = close + 1;
      }
      next = close + 1;
    }
    this.toStructure(bytes.subarray(run));
  }

  /**
   * The index of the quote that closes a string whose content starts at `from`
   * in the current chunk, or -1 if the chunk ends first.
   */
  private closingQuote(from: number): number {
    const bytes = this.chunk;
    let at = from;
    let quote = bytes.indexOf(QUOTE, at);
    if (this.slash !== -1 && this.slash < at) this.slash = bytes.indexOf(BACKSLASH, at);
    while (this.slash !== -1 && (quote === -1 || this.slash < quote)) {
      at = this.slash + 2;
      if (at > bytes.length) {
        this.escaped = true;
        return -1;
      }
      if (quote !== -1 && quote < at) quote = bytes.indexOf(QUOTE, at);
      this.slash = bytes.indexOf(BACKSLASH, at);
    }
    return quote;
  }

  /** The open string goes on past this chunk: hold its bytes, or decode them once it is long. */
  private stillOpen(content: Buffer): void {
    if (this.long) return this.long.write(content);
    this.open.push(content);
    this.openBytes += content.length;
    if (this.openBytes <= LONG_STRING_BYTES) return;
    this.long = new LongString();
    this.parts.push(`"${this.marker}${this.longs.length}"`);
    for (const held of this.open) this.long.write(held);
    this.open = [];
  }

  /** The open string closes with `content`; true if it went apart (long), false if it stays in the structure. */
  private closeOpen(content: Buffer): boolean {
    this.inString = false;
    const open = this.open;
    this.open = [];
    if (!this.long && this.openBytes + content.length <= LONG_STRING_BYTES) {
      this.openBytes = 0;
      this.toStructure(Buffer.from('"'));
      for (const held of open) this.toStructure(held);
      return false;
    }
    this.openBytes = 0;
    if (!this.long) {
      this.parts.push(`"${this.marker}${this.longs.length}"`);
      this.long = new LongString();
      for (const held of open) this.long.write(held);
    }
    this.long.write(content);
    this.longs.push(this.long.end());
    this.long = undefined;
    return true;
  }

  /** A whole long string inside one chunk. */
  private addLong(content: Buffer): void {
    this.parts.push(`"${this.marker}${this.longs.length}"`);
    const long = new LongString();
    long.write(content);
    this.longs.push(long.end());
  }

  private toStructure(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const text = this.structure.write(bytes);
    if (text.length > 0) this.parts.push(text);
  }

  private keepHead(bytes: Buffer): void {
    if (this.headBytes >= HEAD_BYTES) return;
    const piece = Buffer.from(bytes.subarray(0, HEAD_BYTES - this.headBytes));
    this.head.push(piece);
    this.headBytes += piece.length;
  }

  private headText(): string {
    return Buffer.concat(this.head).toString("utf8");
  }

  /** Not JSON: forget what was gathered, read on to the newline. */
  private breakLine(): void {
    this.broken = true;
    this.parts = [];
    this.open = [];
    this.long = undefined;
    this.longs = [];
  }
}
