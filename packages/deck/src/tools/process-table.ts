/**
 * Background processes with bounded memory: each stream keeps its last
 * `maxLines` lines (older lines are counted, not kept), optionally mirrored to
 * capture files on disk. Each process leads its own group; stopping sends
 * SIGTERM to the group and SIGKILL after a grace period. Backs the `process`
 * built-in and the `bg-process` app card.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { defaultShell } from "./bash";
import { groupAlive, killGroup, trackGroup, untrackGroup } from "../spawn";

const MAX_LINE_CHARS = 8_192;

/** The last `max` lines of a stream, addressed by absolute line number so readers can resume. */
export class LineRing {
  private lines: string[] = [];
  private partial = "";
  /** Absolute number of `lines[0]`. */
  private first = 0;

  constructor(private readonly max: number) {}

  push(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() as string;
    if (this.partial.length > MAX_LINE_CHARS) {
      parts.push(this.partial);
      this.partial = "";
    }
    for (const line of parts) {
      const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
      this.lines.push(clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS)}…` : clean);
    }
    if (this.lines.length > this.max) {
      const drop = this.lines.length - this.max;
      this.lines = this.lines.slice(drop);
      this.first += drop;
    }
  }

  /** Emits a final unterminated line. */
  end(): void {
    if (this.partial !== "") this.push("\n");
  }

  /** Total lines ever seen (the next line's absolute number). */
  get next(): number {
    return this.first + this.lines.length;
  }

  get buffered(): number {
    return this.lines.length;
  }

  /** Lines from absolute number `from`, and how many of those were already dropped. */
  since(from: number): { lines: string[]; dropped: number } {
    const start = Math.max(from, this.first);
    return { lines: this.lines.slice(start - this.first), dropped: Math.max(0, this.first - from) };
  }

  tail(n: number): string[] {
    return n <= 0 ? [] : this.lines.slice(-n);
  }
}

export type ProcessState = "running" | "exited" | "killed" | "failed";

export interface ManagedProcess {
  readonly id: string;
  readonly name?: string;
  readonly command: string;
  readonly cwd: string;
  readonly pid: number | undefined;
  readonly startedAt: number;
  endedAt?: number;
  state: ProcessState;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
  readonly stdout: LineRing;
  readonly stderr: LineRing;
  readonly captureFiles?: { readonly stdout: string; readonly stderr: string };
  /** Where the last incremental read stopped, per stream. */
  cursor: { stdout: number; stderr: number };
  /** Settles when the process has exited, its streams are drained and its capture files written. */
  readonly done: Promise<void>;
}

export interface ProcessTableOptions {
  /** Lines kept per stream. */
  readonly maxLines: number;
  /** Between SIGTERM and SIGKILL on stop. */
  readonly graceMs: number;
  /** Mirror each stream to `<dir>/<id>.stdout.log` / `.stderr.log`. */
  readonly captureDir?: string;
  /** Stop refusing new processes past this many live ones. */
  readonly maxRunning?: number;
}

export class ProcessTable {
  private readonly entries = new Map<string, ManagedProcess>();
  private counter = 0;

  constructor(private readonly options: ProcessTableOptions) {}

  get maxLines(): number {
    return this.options.maxLines;
  }

  start(
    command: string,
    cwd: string,
    extra: { name?: string; env?: Record<string, string>; captureDir?: string } = {},
  ): ManagedProcess {
    const running = [...this.entries.values()].filter((p) => p.state === "running").length;
    const maxRunning = this.options.maxRunning ?? 32;
    if (running >= maxRunning) throw new Error(`already ${running} running processes; stop one first`);
    const id = `p${++this.counter}`;
    const capture = openCapture(extra.captureDir ?? this.options.captureDir, id);
    const child = spawn(defaultShell(), ["-c", command], {
      cwd,
      env: { ...process.env, ...extra.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (child.pid !== undefined) trackGroup(child.pid);
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const entry: ManagedProcess = {
      id,
      ...(extra.name === undefined ? {} : { name: extra.name }),
      command,
      cwd,
      pid: child.pid,
      startedAt: Date.now(),
      state: "running",
      exitCode: null,
      signal: null,
      stdout: new LineRing(this.options.maxLines),
      stderr: new LineRing(this.options.maxLines),
      ...(capture.files === undefined ? {} : { captureFiles: capture.files }),
      cursor: { stdout: 0, stderr: 0 },
      done,
    };
    follow(child, entry, capture, settle);
    this.entries.set(id, entry);
    return entry;
  }

  get(id: string): ManagedProcess | undefined {
    return this.entries.get(id);
  }

  list(): ManagedProcess[] {
    return [...this.entries.values()];
  }

  /** New output since the last incremental read, advancing the cursors. */
  readNew(entry: ManagedProcess): { stdout: string[]; stderr: string[]; dropped: number } {
    const out = entry.stdout.since(entry.cursor.stdout);
    const err = entry.stderr.since(entry.cursor.stderr);
    entry.cursor = { stdout: entry.stdout.next, stderr: entry.stderr.next };
    return { stdout: out.lines, stderr: err.lines, dropped: out.dropped + err.dropped };
  }

  /** SIGTERM to the group, SIGKILL after the grace period; resolves once it is gone. */
  async stop(entry: ManagedProcess): Promise<void> {
    const pid = entry.pid;
    if (pid === undefined) return;
    if (entry.state === "running" || groupAlive(pid)) {
      killGroup(pid, "SIGTERM");
      const timer = setTimeout(() => killGroup(pid, "SIGKILL"), this.options.graceMs);
      await Promise.race([entry.done, new Promise((resolve) => setTimeout(resolve, this.options.graceMs + 1_000))]);
      clearTimeout(timer);
      if (groupAlive(pid)) killGroup(pid, "SIGKILL");
    }
    untrackGroup(pid);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((entry) => this.stop(entry)));
  }

  /** Waits up to `ms` for the process to exit (to catch an immediate failure). */
  async settle(entry: ManagedProcess, ms: number): Promise<void> {
    if (ms <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([entry.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    if (timer) clearTimeout(timer);
  }
}

export function describeState(entry: ManagedProcess): string {
  switch (entry.state) {
    case "running":
      return "running";
    case "exited":
      return `exited with code ${entry.exitCode}`;
    case "killed":
      return `killed by ${entry.signal}`;
    case "failed":
      return `failed to start: ${entry.error ?? "unknown error"}`;
  }
}

export function runtimeOf(entry: ManagedProcess): string {
  const ms = (entry.endedAt ?? Date.now()) - entry.startedAt;
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** Where a process's streams are mirrored, when they are. */
interface Capture {
  readonly files?: ManagedProcess["captureFiles"];
  readonly out?: fs.WriteStream;
  readonly err?: fs.WriteStream;
}

function openCapture(captureDir: string | undefined, id: string): Capture {
  if (captureDir === undefined) return {};
  fs.mkdirSync(captureDir, { recursive: true });
  const stamp = `${Date.now().toString(36)}-${id}`;
  const files = {
    stdout: path.join(captureDir, `${stamp}.stdout.log`),
    stderr: path.join(captureDir, `${stamp}.stderr.log`),
  };
  return { files, out: fs.createWriteStream(files.stdout), err: fs.createWriteStream(files.stderr) };
}

/** Keep the entry up to date with its process: output lines, exit, close (then `settle`). */
function follow(
  child: ChildProcessByStdio<null, Readable, Readable>,
  entry: ManagedProcess,
  capture: Capture,
  settle: () => void,
): void {
  child.stdout.on("data", (chunk: Buffer) => {
    entry.stdout.push(chunk.toString("utf8"));
    capture.out?.write(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    entry.stderr.push(chunk.toString("utf8"));
    capture.err?.write(chunk);
  });
  child.once("error", (error) => {
    if (entry.state === "running") {
      entry.state = "failed";
      entry.error = error.message;
      entry.endedAt = Date.now();
    }
    void closeCapture(capture).then(settle);
  });
  child.once("exit", (code, signal) => {
    entry.exitCode = code;
    entry.signal = signal;
    entry.state = signal ? "killed" : "exited";
    entry.endedAt = Date.now();
    // Grandchildren may keep the pipes; do not wait on them forever.
    setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
    }, 500).unref();
  });
  child.once("close", () => {
    entry.stdout.end();
    entry.stderr.end();
    if (entry.pid !== undefined && !groupAlive(entry.pid)) untrackGroup(entry.pid);
    void closeCapture(capture).then(settle);
  });
}

/** Ends the capture files; resolves once what was written to them is on disk (a failed write ends it too). */
function closeCapture(capture: Capture): Promise<void> {
  const ended = (stream: fs.WriteStream | undefined) =>
    new Promise<void>((resolve) => (stream === undefined ? resolve() : stream.end(() => resolve())));
  return Promise.all([ended(capture.out), ended(capture.err)]).then(() => undefined);
}
