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

/** A line that opens with an error's own name (`Error:`, `TypeError`, `panic:`, `Traceback`, `FATAL`). */
const ERROR_HEAD =
  /^\s*(?:[A-Za-z]*Error\b|Exception\b|Traceback\b|panic:|fatal\b|FATAL\b|Unhandled\b|thread '.*' panicked)/;
/** A line that says something went wrong. */
const ERROR_WORD =
  /\b(?:error|fatal|panic|exception|cannot|can't|could not|failed|denied|not found|no such|refused|unhandled|abort(?:ed)?|crash(?:ed|ing)?|E[A-Z]{3,}\b)/i;
/** Chatter servers print at startup (SDK tool-name warnings, deprecations): never the cause. */
const NOISE = /\b(?:warn(?:ing)?|deprecat\w*|info|debug)\b/i;
const MAX_LINE = 240;

const ESC = 0x1b;

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** A server's line as shown in a message: colour codes and control characters dropped, bounded. */
function shownLine(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i += 1) {
    const code = line.charCodeAt(i);
    if (code === ESC && line[i + 1] === "[") {
      // Skip a CSI sequence: ESC [ parameters final-letter.
      i += 2;
      while (i < line.length && !/[A-Za-z]/.test(line[i]!)) i += 1;
    } else if (!isControl(code)) out += line[i];
  }
  const clean = out.trim();
  return clean.length > MAX_LINE ? `${clean.slice(0, MAX_LINE - 1)}…` : clean;
}

/**
 * The stderr line that explains a failure: the last one opening with an
 * error's name, else the last that says something failed (warnings aside),
 * else the last that is not a warning, else the last.
 */
export function explainingLine(lines: readonly string[]): string | undefined {
  const shown = lines.map(shownLine).filter((line) => line.length > 0);
  const last = <T>(list: T[]) => list[list.length - 1];
  const quiet = shown.filter((line) => !NOISE.test(line));
  return (
    last(shown.filter((line) => ERROR_HEAD.test(line))) ??
    last(quiet.filter((line) => ERROR_WORD.test(line))) ??
    last(quiet) ??
    last(shown)
  );
}

/** ` Stderr says: …` (the line that explains it) for a fault message, or "" when there is none. */
export function describeStderr(lines: readonly string[]): string {
  const cause = explainingLine(lines);
  return cause === undefined ? "" : ` Stderr says: ${cause}`;
}
