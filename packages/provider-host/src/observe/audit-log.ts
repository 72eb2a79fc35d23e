/**
 * The audit log: one JSON line per gateway request (time, caller, era,
 * method, server and tool, a hash of the arguments, outcome, latency, trace
 * id), appended to a file and rotated by size (`file` → `file.1` → ... →
 * `file.<keep>`). Never a token or an argument value: a record holds
 * neither. A line is built (its JSON, its time, the arguments' hash) right
 * after the request's answer left, not on the way to it; lines are written
 * in batches, at most `FLUSH_DELAY_MS` late, each batch one synchronous
 * write: a promise write per batch cost the gateway more CPU than the write
 * itself (measured, decision record gateway-access-and-auth.md). `close()`
 * and the process's `exit` write what is left, so a process that ends
 * without closing loses no line.
 */
import { hash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { afterAnswers } from "./after-answers";
import type { RequestObserver, RequestRecord } from "./request-record";
import { traceIdOf } from "./trace-context";

export interface AuditLogOptions {
  /** The file lines are appended to (created with its folder when missing). */
  readonly file: string;
  /** Rotate once the file would grow past this many bytes. Default 64 MiB. */
  readonly maxBytes?: number;
  /** Rotated files kept beside the live one. Default 5. */
  readonly keep?: number;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_KEEP = 5;
/** Lines waiting past this many bytes are written at once rather than after `FLUSH_DELAY_MS`. */
const FLUSH_BYTES = 64 * 1024;
/**
 * How long a line may wait for others to share its write: one write per
 * request cost as much as the request's own reply (measured by
 * bench/teams-gateway.mjs); `close()` writes what is waiting.
 */
const FLUSH_DELAY_MS = 100;

export function auditLog(options: AuditLogOptions): RequestObserver {
  mkdirSync(dirname(options.file), { recursive: true });
  const file = new RotatingFile(
    options.file,
    options.maxBytes ?? DEFAULT_MAX_BYTES,
    Math.max(1, options.keep ?? DEFAULT_KEEP),
  );
  let pending: string[] = [];
  let pendingBytes = 0;
  let timer: NodeJS.Timeout | undefined;

  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    pendingBytes = 0;
    try {
      file.write(lines);
    } catch (error) {
      process.emitWarning(`indus audit log ${options.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const finished = afterAnswers<RequestRecord>((records) => {
    for (const record of records) {
      const line = auditLine(record);
      pending.push(line);
      pendingBytes += line.length;
    }
    if (pendingBytes >= FLUSH_BYTES) write();
    else timer ??= setTimeout(write, FLUSH_DELAY_MS).unref();
  });
  const flush = () => {
    finished.drain();
    write();
  };
  // However the process ends (a teardown cut short, `process.exit`), the lines waiting are written.
  process.on("exit", flush);

  return {
    finished: (record) => finished.add(record),
    close() {
      process.off("exit", flush);
      flush();
      file.close();
      return Promise.resolve();
    },
  };
}

/** An append-only file rotated by size: `path` → `path.1` → ... → `path.<keep>`. */
class RotatingFile {
  private file: { fd: number; size: number } | undefined;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    private readonly keep: number,
  ) {}

  /** Writes `lines` in order, rotating before a line that would grow the file past `maxBytes`. */
  write(lines: readonly string[]): void {
    let index = 0;
    while (index < lines.length) {
      let target = this.open();
      if (target.size > 0 && target.size + Buffer.byteLength(lines[index]!) > this.maxBytes) {
        this.rotate();
        target = this.open();
      }
      const first = index;
      let bytes = 0;
      for (; index < lines.length; index++) {
        const size = Buffer.byteLength(lines[index]!);
        if (index > first && target.size + bytes + size > this.maxBytes) break;
        bytes += size;
      }
      writeAll(target.fd, Buffer.from(lines.slice(first, index).join("")));
      target.size += bytes;
    }
  }

  close(): void {
    if (this.file !== undefined) closeSync(this.file.fd);
    this.file = undefined;
  }

  private open(): { fd: number; size: number } {
    if (this.file !== undefined) return this.file;
    const fd = openSync(this.path, "a", 0o600);
    this.file = { fd, size: fstatSync(fd).size };
    return this.file;
  }

  private rotate(): void {
    this.close();
    const { path, keep } = this;
    rmSync(`${path}.${keep}`, { force: true });
    for (let index = keep - 1; index >= 1; index--) renameIfThere(`${path}.${index}`, `${path}.${index + 1}`);
    renameIfThere(path, `${path}.1`);
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written);
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Each caller's `caller` field as JSON (a caller object stands for one token while it is remembered). */
const callerFields = new WeakMap<RequestRecord["caller"], string>();

function callerJson(caller: RequestRecord["caller"]): string {
  let text = callerFields.get(caller);
  if (text === undefined) {
    const who: { clientId?: string; subject?: string } = {};
    if (caller.clientId !== undefined && caller.clientId !== "") who.clientId = caller.clientId;
    if (caller.subject !== undefined) who.subject = caller.subject;
    text = JSON.stringify(who);
    callerFields.set(caller, text);
  }
  return text;
}

/**
 * The line's JSON, its fields in a fixed order, absent ones left out: what
 * `JSON.stringify` made of an object of them, written directly (half the
 * time, measured). Text from callers goes through `JSON.stringify`; the rest
 * is the gateway's own (an ISO time, hex, an outcome, numbers).
 */
function auditLine(record: RequestRecord): string {
  let line = `{"time":"${isoTime(record.time)}","caller":${callerJson(record.caller)}`;
  if (record.era !== undefined) line += `,"era":${JSON.stringify(record.era)}`;
  line += `,"method":${JSON.stringify(record.method)}`;
  if (record.server !== undefined) line += `,"server":${JSON.stringify(record.server)}`;
  if (record.tool !== undefined) line += `,"tool":${JSON.stringify(record.tool)}`;
  if (record.target !== undefined) line += `,"target":${JSON.stringify(record.target)}`;
  if (record.args !== undefined) line += `,"argsHash":"${hashOf(record.args)}"`;
  line += `,"outcome":"${record.outcome ?? "refused"}"`;
  if (record.errorCode !== undefined) line += `,"errorCode":${JSON.stringify(record.errorCode)}`;
  // An HTTP status and a difference of two clock readings: finite integers, their text the same as JSON's.
  if (record.status !== undefined) line += `,"status":${record.status}`;
  return `${line},"latencyMs":${record.latencyMs ?? 0},"traceId":"${traceIdOf(record.trace)}"}\n`;
}

/** The second of the last line's time, as ISO text up to its milliseconds (`2026-01-02T03:04:05.`). */
let isoSecond = Number.NaN;
let isoPrefix = "";

/**
 * `new Date(ms).toISOString()`, its date and time of day worked out once a
 * second: lines come thousands a second, and a `Date` and its text for each
 * were a noticeable part of building one (measured).
 */
function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  return `${isoPrefix}${String(ms - second * 1000).padStart(3, "0")}Z`;
}

/** SHA-256 (hex) of the arguments as JSON; the one-shot `hash` skips a `Hash` object per line. */
function hashOf(value: unknown): string {
  return hash("sha256", JSON.stringify(value) ?? "", "hex");
}
