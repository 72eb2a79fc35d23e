/**
 * The audit log: one JSON line per gateway request (time, caller, era,
 * method, server and tool, a hash of the arguments, outcome, latency, trace
 * id), appended to a file and rotated by size (`file` → `file.1` → ... →
 * `file.<keep>`). Never a token or an argument value: a record holds
 * neither. Lines are written in batches off the request path, at most
 * `FLUSH_DELAY_MS` late; `close()` writes what is left.
 */
import { mkdirSync } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
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
  let flushing: Promise<void> | undefined;
  let scheduled = false;

  const writeOut = async () => {
    while (pending.length > 0) {
      const lines = pending;
      pending = [];
      pendingBytes = 0;
      await file.write(lines);
    }
  };
  const flush = (): Promise<void> => {
    scheduled = false;
    flushing ??= writeOut()
      .catch((error: unknown) => {
        process.emitWarning(
          `indus audit log ${options.file}: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => {
        flushing = undefined;
        if (pending.length > 0) void flush();
      });
    return flushing;
  };

  return {
    finished(record) {
      const line = `${JSON.stringify(auditLine(record))}\n`;
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= FLUSH_BYTES) void flush();
      else if (!scheduled) {
        scheduled = true;
        setTimeout(() => void flush(), FLUSH_DELAY_MS).unref();
      }
    },
    async close() {
      while (pending.length > 0 || flushing !== undefined) await flush();
      await file.close();
    },
  };
}

/** An append-only file rotated by size: `path` → `path.1` → ... → `path.<keep>`. */
class RotatingFile {
  private file: { handle: FileHandle; size: number } | undefined;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    private readonly keep: number,
  ) {}

  /** Writes `lines` in order, rotating before a line that would grow the file past `maxBytes`. */
  async write(lines: readonly string[]): Promise<void> {
    let index = 0;
    while (index < lines.length) {
      let target = await this.open();
      if (target.size > 0 && target.size + Buffer.byteLength(lines[index]!) > this.maxBytes) {
        await this.rotate();
        target = await this.open();
      }
      const first = index;
      let bytes = 0;
      for (; index < lines.length; index++) {
        const size = Buffer.byteLength(lines[index]!);
        if (index > first && target.size + bytes + size > this.maxBytes) break;
        bytes += size;
      }
      await target.handle.write(lines.slice(first, index).join(""));
      target.size += bytes;
    }
  }

  async close(): Promise<void> {
    await this.file?.handle.close();
    this.file = undefined;
  }

  private async open(): Promise<{ handle: FileHandle; size: number }> {
    if (this.file !== undefined) return this.file;
    const handle = await open(this.path, "a", 0o600);
    const size = (await stat(this.path).catch(() => ({ size: 0 }))).size;
    this.file = { handle, size };
    return this.file;
  }

  private async rotate(): Promise<void> {
    await this.close();
    const { path, keep } = this;
    await rm(`${path}.${keep}`, { force: true });
    for (let index = keep - 1; index >= 1; index--) {
      await rename(`${path}.${index}`, `${path}.${index + 1}`).catch(() => {});
    }
    await rename(path, `${path}.1`).catch(() => {});
  }
}

/** The line's fields, in a fixed order; absent ones left out. */
function auditLine(record: RequestRecord): Record<string, unknown> {
  const { caller } = record;
  return {
    time: new Date(record.time).toISOString(),
    caller: {
      ...(caller.clientId !== undefined && caller.clientId !== "" && { clientId: caller.clientId }),
      ...(caller.subject !== undefined && { subject: caller.subject }),
    },
    ...(record.era !== undefined && { era: record.era }),
    method: record.method,
    ...(record.server !== undefined && { server: record.server }),
    ...(record.tool !== undefined && { tool: record.tool }),
    ...(record.target !== undefined && { target: record.target }),
    ...(record.argsHash !== undefined && { argsHash: record.argsHash }),
    outcome: record.outcome ?? "refused",
    ...(record.errorCode !== undefined && { errorCode: record.errorCode }),
    ...(record.status !== undefined && { status: record.status }),
    latencyMs: record.latencyMs ?? 0,
    traceId: traceIdOf(record.trace),
  };
}
