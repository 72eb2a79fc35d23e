/**
 * Splits a byte stream into newline-delimited lines, as MCP's stdio framing
 * wants. Unlike the SDK's `ReadBuffer` (which re-concatenates its whole buffer
 * on every chunk, quadratic in the message size, and caps messages at 10 MiB)
 * this keeps the pending chunks in a list and joins them once per line, so a
 * 50 MB result costs one copy.
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
      const piece = chunk.subarray(start, newline);
      const total = this.pendingBytes + piece.length;
      if (total > this.maxLineBytes) this.overflow();
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece], total);
      this.pending = [];
      this.pendingBytes = 0;
      const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
      onLine(line.toString("utf8", 0, end));
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
