/**
 * Child processes in their own process group. Every command a tool starts is
 * spawned detached (it leads a new group), so a timeout or a cancellation can
 * kill the command and everything it started with one `kill(-pgid)`. Output is
 * captured into bounded head-and-tail buffers: a noisy command cannot exhaust
 * memory, and the model still sees how it began and how it ended.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { ShellSpawnRequest } from "./vocabulary";

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Process groups still alive are killed when this process exits, so no tool leaks a child. */
export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of liveGroups) killGroup(group, "SIGKILL");
    });
  }
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** Signals the whole group led by `pid`; falls back to the lone process. */
export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/** True while any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the first `headBytes` and the last `tailBytes` of a stream. */
export class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLength, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailBytes === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tailLength - (this.tail[0]?.length ?? 0) >= this.tailBytes) {
      this.tailLength -= (this.tail.shift() as Buffer).length;
    }
  }

  /** Bytes neither kept in the head nor in the tail. */
  get dropped(): number {
    return Math.max(0, this.total - this.headBytes - this.tailBytes);
  }

  text(marker: (dropped: number) => string = (n) => `\n[... ${n} bytes omitted ...]\n`): string {
    const head = Buffer.concat(this.head).toString("utf8");
    let tail = Buffer.concat(this.tail);
    const dropped = this.dropped;
    if (tail.length > this.tailBytes) tail = tail.subarray(tail.length - this.tailBytes);
    if (dropped === 0) return head + tail.toString("utf8");
    return head + marker(dropped) + tail.toString("utf8");
  }
}

/** The contract's shell request, plus output caps and stop behaviour. */
export interface GroupRunRequest extends ShellSpawnRequest {
  /** Head and tail kept per stream (or of the merged stream). */
  readonly headBytes: number;
  readonly tailBytes: number;
  /** Interleave stderr into stdout, as a terminal shows it. */
  readonly merge?: boolean;
  /** Between SIGTERM and SIGKILL when stopping the group. */
  readonly graceMs?: number;
}

export interface GroupRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly droppedBytes: number;
  readonly durationMs: number;
  /** Set when the program could not be started at all. */
  readonly spawnError?: string;
}

/** After the leader exits, how long to wait for grandchildren to release the pipes. */
const DRAIN_MS = 200;

export function runProcessGroup(request: GroupRunRequest): Promise<GroupRunResult> {
  if (request.signal?.aborted)
    return Promise.resolve({
      stdout: "",
      stderr: "",
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: true,
      droppedBytes: 0,
      durationMs: 0,
    });
  return new Promise((resolve) => new GroupRun(request, resolve).start());
}

/** One run of a command as its own process group: output kept head and tail, a deadline, a stop on abort. */
class GroupRun {
  private readonly started = Date.now();
  private readonly out: HeadTailBuffer;
  private readonly err: HeadTailBuffer;
  private timedOut = false;
  private aborted = false;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  private settled = false;
  private drainTimer: NodeJS.Timeout | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private child: ChildProcess | undefined;
  private pid: number | undefined;
  private readonly onAbort = () => {
    this.aborted = true;
    this.terminate();
  };

  constructor(
    private readonly request: GroupRunRequest,
    private readonly resolve: (result: GroupRunResult) => void,
  ) {
    this.out = new HeadTailBuffer(request.headBytes, request.tailBytes);
    this.err = request.merge ? this.out : new HeadTailBuffer(request.headBytes, request.tailBytes);
  }

  start(): void {
    const { request } = this;
    const child = spawn(request.command, [...request.args], {
      cwd: request.cwd,
      env: { ...process.env, ...request.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    this.pid = child.pid;
    if (this.pid !== undefined) trackGroup(this.pid);
    request.signal?.addEventListener("abort", this.onAbort, { once: true });
    if (request.timeoutMs !== undefined) {
      this.deadline = setTimeout(() => {
        this.timedOut = true;
        this.terminate();
      }, request.timeoutMs);
    }
    child.stdout?.on("data", (chunk: Buffer) => this.out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.err.push(chunk));
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (this.pid === undefined)
        this.finish(error.code === "ENOENT" ? `${request.command}: command not found` : error.message);
    });
    child.once("exit", (code, sig) => this.exited(code, sig));
    child.once("close", () => this.finish());
  }

  private exited(code: number | null, sig: NodeJS.Signals | null): void {
    const { pid } = this;
    this.exitCode = code;
    this.exitSignal = sig;
    // Once the group is gone no grandchild can still hold the pipes.
    if (this.killTimer && pid !== undefined && !groupAlive(pid)) {
      clearTimeout(this.killTimer);
      untrackGroup(pid);
    }
    this.drainTimer = setTimeout(() => this.finish(), DRAIN_MS);
  }

  private terminate(): void {
    const { pid } = this;
    if (pid === undefined) return;
    killGroup(pid, "SIGTERM");
    this.killTimer ??= setTimeout(() => {
      killGroup(pid, "SIGKILL");
      untrackGroup(pid);
    }, this.request.graceMs ?? 2_000);
  }

  private finish(spawnError?: string): void {
    if (this.settled) return;
    this.settled = true;
    const { request, pid } = this;
    if (this.deadline) clearTimeout(this.deadline);
    if (this.drainTimer) clearTimeout(this.drainTimer);
    request.signal?.removeEventListener("abort", this.onAbort);
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    if (pid !== undefined && !this.timedOut && !this.aborted) untrackGroup(pid);
    this.resolve({
      stdout: this.out.text(),
      stderr: request.merge ? "" : this.err.text(),
      exitCode: this.exitCode,
      signal: this.exitSignal,
      timedOut: this.timedOut,
      aborted: this.aborted,
      droppedBytes: this.out.dropped + (request.merge ? 0 : this.err.dropped),
      durationMs: Date.now() - this.started,
      ...(spawnError === undefined ? {} : { spawnError }),
    });
  }
}
