/**
 * A server's stderr, kept so a fault can quote it and a user can read it, but
 * bounded: a chatty server must not grow the host's memory. Optionally
 * appended to a log file as well. The pipe is always read, since an unread
 * stderr pipe fills up and blocks the child.
 */
import fs from "node:fs";
import path from "node:path";

export const DEFAULT_STDERR_LINES = 200;
const MAX_LINE_CHARS = 4_000;

export class StderrTail {
  private readonly lines: string[] = [];
  private partial = "";
  private log: fs.WriteStream | undefined;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly maxLines = DEFAULT_STDERR_LINES,
    logFile?: string,
  ) {
    if (logFile) {
      try {
        fs.mkdirSync(path.dirname(logFile), { recursive: true });
        this.log = fs.createWriteStream(logFile, { flags: "a" });
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
    this.log?.write(chunk);
    const text = this.partial + (typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true }));
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? "";
    if (this.partial.length > MAX_LINE_CHARS) {
      parts.push(this.partial);
      this.partial = "";
    }
    for (const line of parts) this.keep(line);
  }

  private keep(line: string): void {
    this.lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
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
