/**
 * Splits a byte stream into newline-delimited lines, as MCP's stdio framing
 * wants. Unlike the SDK's `ReadBuffer` (which re-concatenates its whole buffer
 * on every chunk, quadratic in the message size, and caps messages at 10 MiB)
 * this keeps the pending chunks in a list and decodes them once per line. A
 * line past `decodePastBytes` is parsed while it arrives (`LongLine`), so a
 * large result is never held as chunks, the line and its value at once.
 */
import { LongLine, type Line } from "./long-line";

export type { Line } from "./long-line";

export class MessageTooLargeError extends Error {
  override readonly name = "MessageTooLargeError";
  constructor(readonly limit: number) {
    super(`server sent a message over ${limit} bytes`);
  }
}

/** Lines longer than this are parsed as they arrive. */
export const DECODE_PAST_BYTES = 1024 * 1024;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private long: LongLine | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly decodePastBytes = DECODE_PAST_BYTES,
  ) {}

  /** Calls `onLine` for every complete line in `chunk`; throws `MessageTooLargeError`. */
  push(chunk: Buffer, onLine: (line: Line) => void): void {
    let start = 0;
    let newline = chunk.indexOf(10, start);
    while (newline !== -1) {
      onLine(this.take(chunk.subarray(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** Holds (or, past the threshold, parses) the start of a line still missing its newline. */
  private keep(rest: Buffer): void {
    this.pendingBytes += rest.length;
    if (this.pendingBytes > this.maxLineBytes) this.overflow();
    if (this.long) {
      this.long.write(rest);
      return;
    }
    this.pending.push(rest);
    if (this.pendingBytes <= this.decodePastBytes) return;
    const long = new LongLine();
    for (const held of this.pending) long.write(held);
    this.pending = [];
    this.long = long;
  }

  /** The line that `piece` completes. None of its bytes is referenced once it is returned. */
  private take(piece: Buffer): Line {
    const total = this.pendingBytes + piece.length;
    if (total > this.maxLineBytes) this.overflow();
    const long = this.long;
    if (long) {
      this.clear();
      long.write(piece);
      return long.end();
    }
    return { kind: "text", text: this.decode(piece, total) };
  }

  /** The pending chunks and `piece` as one string, without a trailing CR. */
  private decode(piece: Buffer, total: number): string {
    const pending = this.pending;
    this.clear();
    if (pending.length === 0) return decodeLine(piece);
    const line = Buffer.concat([...pending, piece], total);
    // The chunks are garbage from here, before the string is allocated.
    pending.length = 0;
    return decodeLine(line);
  }

  private overflow(): never {
    this.clear();
    throw new MessageTooLargeError(this.maxLineBytes);
  }

  clear(): void {
    // Most lines come whole in one chunk: nothing held, nothing to drop.
    if (this.pending.length > 0) this.pending = [];
    this.pendingBytes = 0;
    this.long = undefined;
  }
}

/** A line's text, without a trailing CR. */
function decodeLine(line: Buffer): string {
  const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
  return line.toString("utf8", 0, end);
}
