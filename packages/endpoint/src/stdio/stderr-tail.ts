/**
 * A server's stderr, kept so a fault can quote it and a user can read it, but
 * bounded: a chatty server must not grow the host's memory. Optionally
 * appended to a log file as well: each line stamped with the time, the file
 * private to the user (0600: stderr may carry secrets) and capped at
 * `MAX_LOG_BYTES`. The pipe is always read, since an unread stderr pipe fills
 * up and blocks the child.
 */
import fs from "node:fs";
import path from "node:path";

export const DEFAULT_STDERR_LINES = 200;
const MAX_LINE_CHARS = 4_000;
/** Beyond this a log file gets one closing note and nothing more. */
export const MAX_LOG_BYTES = 8 * 1024 * 1024;

export class StderrTail {
  private readonly lines: string[] = [];
  private partial = "";
  private log: fs.WriteStream | undefined;
  private logBytes = 0;
  private logAtLineStart = true;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly maxLines = DEFAULT_STDERR_LINES,
    logFile?: string,
  ) {
    if (logFile) {
      try {
        fs.mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
        this.log = fs.createWriteStream(logFile, { flags: "a", mode: 0o600 });
        // A log that cannot be written must not take the endpoint down.
        this.log.on("error", () => {
          this.log = undefined;
        });
      } catch {
        this.log = undefined;
      }
    }
  }

  /** Feed a raw chunk of the child's stderr. */
  push(chunk: Buffer | string): void {
    const decoded = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    this.writeLog(decoded);
    const text = this.partial + decoded;
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? "";
    if (this.partial.length > MAX_LINE_CHARS) {
      parts.push(this.partial);
      this.partial = "";
    }
    for (const line of parts) this.keep(line);
  }

  /** Append `text` to the log, a timestamp at the start of each line, up to the cap. */
  private writeLog(text: string): void {
    if (!this.log || text.length === 0) return;
    let stamped = "";
    for (const piece of text.split(/(?<=\n)/)) {
      if (this.logAtLineStart) stamped += `${new Date().toISOString()} `;
      stamped += piece;
      this.logAtLineStart = piece.endsWith("\n");
    }
    const bytes = Buffer.byteLength(stamped);
    if (this.logBytes + bytes > MAX_LOG_BYTES) {
      this.log.write(`${this.logAtLineStart ? "" : "\n"}[log capped at ${MAX_LOG_BYTES} bytes]\n`);
      this.close();
      return;
    }
    this.logBytes += bytes;
    this.log.write(stamped);
  }

  private keep(line: string): void {
    this.lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }

  /**
   * Start a fresh tail for a fresh attempt (the log file keeps every line);
   * the returned function puts the old tail back.
   */
  reset(): () => void {
    const lines = this.lines.splice(0, this.lines.length);
    const partial = this.partial;
    this.partial = "";
    return () => {
      this.lines.splice(0, this.lines.length, ...lines);
      this.partial = partial;
    };
  }

  /** The last `count` lines (a trailing unterminated line included). */
  tail(count = this.maxLines): string[] {
    const all = this.partial ? [...this.lines, this.partial] : [...this.lines];
    return all.slice(Math.max(0, all.length - count));
  }

  /** Stop writing the log file; the in-memory tail stays readable. */
  close(): void {
    const log = this.log;
    this.log = undefined;
    log?.end();
  }
}

/** ` Last stderr: a | b` for a fault message, or "" when there is none. */
export function describeStderr(lines: readonly string[]): string {
  const shown = lines.filter((line) => line.trim().length > 0).slice(-5);
  return shown.length === 0 ? "" : ` Last stderr: ${shown.join(" | ")}`;
}
