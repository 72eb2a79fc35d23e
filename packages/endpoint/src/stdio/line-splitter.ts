/**
 * Splits a byte stream into newline-delimited lines, as MCP's stdio framing
 * wants. Unlike the SDK's `ReadBuffer` (which re-concatenates its whole buffer
 * on every chunk, quadratic in the message size, and caps messages at 10 MiB)
 * this keeps the pending chunks in a list and decodes them once per line. The
 * joined bytes and the chunks are dropped before the line is handed on, so
 * while a 50 MB result is parsed only its text is held, not its bytes too.
 */
export class MessageTooLargeError extends Error {
  override readonly name = "MessageTooLargeError";
  constructor(readonly limit: number) {
    super(`server sent a message over ${limit} bytes`);
  }
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Calls `onLine` for every complete line in `chunk`; throws `MessageTooLargeError`. */
  push(chunk: Buffer, onLine: (line: string) => void): void {
    let start = 0;
    let newline = chunk.indexOf(10, start);
    while (newline !== -1) {
      onLine(this.take(chunk.subarray(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxLineBytes) this.overflow();
    }
  }

  /**
   * The pending chunks and `piece` as one string, without a trailing CR. The
   * bytes live only in this frame: none of them is still referenced while
   * the caller parses the line.
   */
  private take(piece: Buffer): string {
    const total = this.pendingBytes + piece.length;
    if (total > this.maxLineBytes) this.overflow();
    const pending = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece], total);
    // The chunks are garbage from here, before the string is allocated.
    pending.length = 0;
    const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
    return line.toString("utf8", 0, end);
  }

  private overflow(): never {
    this.pending = [];
    this.pendingBytes = 0;
    throw new MessageTooLargeError(this.maxLineBytes);
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}
