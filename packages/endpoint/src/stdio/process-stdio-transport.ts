/**
 * The stdio transport: the SDK's `Transport` over a child process we spawn
 * ourselves. The SDK's `StdioClientTransport` signals only its direct child,
 * so a server started through `npx`, `uvx` or `sh -c` leaves its real process
 * behind; here the child leads its own process group (`detached`), and
 * shutdown walks the whole group: end stdin, grace period, SIGTERM, SIGKILL.
 * Framing and message validation stay the SDK's (`serializeMessage`,
 * `parseJSONRPCMessage`), but for a raw call's plain answer, which the SDK's
 * schema would pass unchanged (see `raw-call-tap.ts`); line splitting and
 * the parse of a long line while it arrives are ours (see `LineSplitter`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import {
  parseJSONRPCMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { serverEnvironment } from "./child-env";
import type { ExitInfo, PipeLoss, ProcessStdioOptions } from "./process-stdio-options";
import { InboundOrder } from "./inbound-order";
import { QUEUED } from "./queued";
import { LineSplitter, MessageTooLargeError, type Line } from "./line-splitter";
import { isPlainRawAnswer } from "../tools/raw-call-tap";
import { forgetProcessGroup, groupAlive, rememberProcessGroup, signalGroup, type ShutdownPace } from "./process-groups";

/** How long after the direct child exits we wait for its pipes to close. */
const PIPE_DRAIN_MS = 1_000;
/**
 * After stdout ends (or stdin breaks), how long we wait for the process to
 * exit before calling the pipe itself the failure: a crash usually closes
 * stdout just before the exit event, and its exit code explains more.
 */
const EXIT_AFTER_EOF_MS = 200;

/** Each shutdown wait for a server whose pipes are gone. */
const PIPE_LOSS_GRACE_MS = 300;

const POLL_MS = 25;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly splitter: LineSplitter;
  /** Keeps progress reports ahead of the result they precede (see `InboundOrder`). */
  private readonly inbound = new InboundOrder(
    (message) => this.onmessage?.(message),
    (error) => this.onerror?.(error),
  );
  private exited: Promise<void> | undefined;
  private groupCleanup: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private finished = false;
  private exitInfoValue: ExitInfo | undefined;
  private fatalValue: Error | undefined;
  private garbageLines = 0;
  private drained: Promise<void> | undefined;
  private firstGarbage: string | undefined;
  private pipeLossValue: PipeLoss | undefined;
  /** Each shutdown wait; `close(graceMs)` may shorten it. */
  private graceMs: number;
  /** SIGTERM goes with the stdin end, not after the first wait (`shutDown({ promptly })`). */
  private promptly = false;

  constructor(private readonly options: ProcessStdioOptions) {
    this.splitter = new LineSplitter(options.maxMessageBytes);
    this.graceMs = options.closeGraceMs;
  }

  /** The direct child's pid (the process group id too, on POSIX). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * The child's stderr (already drained into `onStderr`). Its presence, with
   * `pid`, is how the SDK's version probe recognises a stdio transport: on
   * stdio a silent probe means a legacy server, on HTTP it means an outage.
   */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  /** True when this side ended the connection while the server was still running. */
  get endedByHost(): boolean {
    return this.endedByHostValue;
  }

  private endedByHostValue = false;

  /**
   * True when the server answered the SDK's `server/discover` probe (the only
   * request with a string id; the client's own ids are numbers) after the
   * client had moved on to numbered requests: the probe gave up on a 2026
   * server that was slow to answer, not on a legacy one.
   */
  get answeredProbeLate(): boolean {
    return this.answeredProbeLateValue;
  }

  private answeredProbeLateValue = false;
  private sentNumbered = false;

  get exitInfo(): ExitInfo | undefined {
    return this.exitInfoValue;
  }

  /** Set when the stream became unusable (e.g. an over-size message). */
  get fatalError(): Error | undefined {
    return this.fatalValue;
  }

  /** Set when the server closed its stdout or stdin while still running. */
  get pipeLoss(): PipeLoss | undefined {
    return this.pipeLossValue;
  }

  /** Lines on stdout that were not JSON-RPC, and the first of them. */
  get garbage(): { readonly count: number; readonly first?: string | undefined } {
    return { count: this.garbageLines, first: this.firstGarbage };
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error("ProcessStdioTransport already started"));
    // Closed before it started (a connect cancelled early): never spawn.
    if (this.closing) return Promise.reject(new Error("ProcessStdioTransport closed before it started"));
    const posix = process.platform !== "win32";
    return new Promise<void>((resolve, reject) => {
      let spawned = false;
      let child: ChildProcess;
      try {
        child = spawn(this.options.command, [...this.options.args], {
          cwd: this.options.cwd,
          env: serverEnvironment(this.options.env, this.options.inheritEnv),
          stdio: ["pipe", "pipe", "pipe"],
          // Own process group, so shutdown reaches wrapper-spawned grandchildren.
          detached: posix,
          windowsHide: true,
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.child = child;
      // Known from here on, so a signal during start-up still reaches this group.
      if (posix && child.pid !== undefined) rememberProcessGroup(child.pid, (pace) => this.shutDown(pace));
      this.exited = new Promise<void>((resolveExit) => {
        child.once("exit", (code, signal) => {
          this.exitInfoValue = { code, signal };
          resolveExit();
          // Pipes held open by a grandchild must not keep the session "alive".
          setTimeout(() => this.finish(), PIPE_DRAIN_MS).unref();
          if (!this.closing && child.pid !== undefined) this.groupCleanup = this.reapGroup(child.pid);
        });
      });
      child.once("error", (error) => {
        if (!spawned) {
          this.exitInfoValue ??= { code: null, signal: null };
          reject(error);
          this.finish();
          return;
        }
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        spawned = true;
        if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
        resolve();
      });
      child.once("close", () => this.finish());
      child.stdin?.on("error", (error) => {
        this.onerror?.(error);
        this.onPipeLost("stdin-broken");
      });
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.once("end", () => this.onPipeLost("stdout-closed"));
      child.stderr?.on("error", () => undefined);
      // Always drained: an unread stderr pipe fills up and blocks the server.
      child.stderr?.on("data", (chunk: Buffer) => this.options.onStderr(chunk));
      child.stdout?.on("data", (chunk: Buffer) => this.onStdout(chunk));
    });
  }

  /**
   * Stdout ended or stdin broke. Unless the process exits at once (a crash,
   * reported with its exit code), the connection is dead although the process
   * lives: close now, so calls fail at once instead of waiting their deadline,
   * and take the process down.
   */
  private onPipeLost(loss: PipeLoss): void {
    if (this.closing || this.finished || this.pipeLossValue) return;
    this.pipeLossValue = loss;
    setTimeout(() => {
      if (this.exitInfoValue !== undefined || this.closing || this.finished) return;
      this.finish();
      // Its pipes are dead, so a long grace to flush buys nothing.
      void this.close(PIPE_LOSS_GRACE_MS);
    }, EXIT_AFTER_EOF_MS).unref();
  }

  private onStdout(chunk: Buffer): void {
    if (this.fatalValue) return;
    try {
      this.splitter.push(chunk, (line) => this.onLine(line));
    } catch (error) {
      if (error instanceof MessageTooLargeError) {
        this.fatalValue = error;
        this.onerror?.(error);
        void this.close();
        return;
      }
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private onLine(line: Line): void {
    if (line.kind === "blank" || (line.kind === "text" && line.text.trim().length === 0)) return;
    if (line.kind === "garbage") return this.onGarbage(line.head);
    let message: JSONRPCMessage;
    try {
      const value: unknown = line.kind === "value" ? line.value : JSON.parse(line.text);
      // A raw call's plain answer is what the SDK's schema would pass unchanged: it skips the schema's copy.
      message = isPlainRawAnswer(value) ? value : parseJSONRPCMessage(value);
    } catch {
      this.onGarbage(line.kind === "value" ? line.head : line.text);
      return;
    }
    if (this.sentNumbered && "result" in message && typeof message.id === "string") this.answeredProbeLateValue = true;
    this.inbound.push(message);
  }

  private onGarbage(line: string): void {
    this.garbageLines += 1;
    this.firstGarbage ??= line.length > 200 ? `${line.slice(0, 200)}…` : line;
    this.onerror?.(new Error(`server wrote a non-JSON-RPC line to stdout: ${line.slice(0, 200)}`));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closing || this.finished || !stdin.writable) return Promise.reject(new Error("Not connected"));
    // Like the SDK: resolve once the data is queued; under backpressure, senders
    // share one wait for `drain` (one listener set, however many are waiting).
    if ("id" in message && typeof message.id === "number") this.sentNumbered = true;
    if (stdin.write(serializeMessage(message))) return QUEUED;
    this.drained ??= new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        stdin.off("drain", onDrain);
        stdin.off("error", done);
        stdin.off("close", onClose);
        this.drained = undefined;
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(new Error("Not connected"));
      stdin.once("drain", onDrain);
      stdin.once("error", done);
      stdin.once("close", onClose);
    });
    return this.drained;
  }

  /**
   * End stdin, give the server a grace period, then SIGTERM and SIGKILL its
   * group. `graceMs` caps each wait, also for a shutdown already under way
   * (a host hurrying up after a signal).
   */
  close(graceMs?: number): Promise<void> {
    return this.shutDown({ graceMs });
  }

  /**
   * `close`, paced: `promptly` sends SIGTERM with the stdin end, for a host
   * that only listed (a server with nothing left to finish is not made to
   * wait out the grace that protects one in mid-write: Claude Code signals
   * its servers at once too); the wait before SIGKILL stays.
   */
  shutDown({ graceMs, promptly }: ShutdownPace): Promise<void> {
    if (graceMs !== undefined) this.graceMs = Math.min(this.graceMs, graceMs);
    if (promptly === true) this.promptly = true;
    if (this.closing === undefined && this.exitInfoValue === undefined) this.endedByHostValue = true;
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * Wait until `done()` or `graceMs` (as it stands while waiting) has passed
   * since `since`; the child's exit ends a wait at once rather than at the next poll.
   */
  private async waitGrace(since: number, done: () => boolean): Promise<void> {
    while (!done() && Date.now() - since < this.graceMs) {
      const exit = this.exitInfoValue === undefined ? this.exited : undefined;
      await (exit === undefined ? delay(POLL_MS) : Promise.race([delay(POLL_MS), exit]));
    }
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    // The waits below use unref'd timers and the child may be unref'd too: hold the event loop
    // until shutdown ends, or a script awaiting close() (top-level await) exits 13 half-way.
    const keepAlive = setInterval(() => undefined, 1_000);
    try {
      await this.shutdownChild(child);
    } finally {
      clearInterval(keepAlive);
    }
    this.splitter.clear();
    this.inbound.clear();
    this.finish();
  }

  private async shutdownChild(child: ChildProcess | undefined): Promise<void> {
    if (child) {
      try {
        child.stdin?.end();
      } catch {
        // Already gone.
      }
      await this.waitGrace(Date.now(), () => this.exitInfoValue !== undefined || this.promptly);
      if (child.pid !== undefined) await this.reapGroup(child.pid);
      if (this.groupCleanup) await this.groupCleanup;
      // Our own child is ours to reap: wait for Node to collect it, so no zombie stays.
      if (this.exitInfoValue === undefined) await Promise.race([this.exited, delay(2_000)]);
    }
  }

  /**
   * Terminate every process left in the child's group: SIGTERM, wait, SIGKILL.
   * Runs after a crash too, so grandchildren of a dead wrapper do not linger.
   */
  private async reapGroup(pid: number): Promise<void> {
    const posix = process.platform !== "win32";
    // While the direct child lives, so does its group: no need to scan for its members yet.
    const stillThere = () => this.exitInfoValue === undefined || (posix && groupAlive(pid));
    const send = (signal: NodeJS.Signals) => {
      if (posix) signalGroup(pid, signal);
      else this.child?.kill(signal);
    };
    try {
      if (!stillThere()) return;
      send("SIGTERM");
      await this.waitGrace(Date.now(), () => !stillThere());
      if (!stillThere()) return;
      send("SIGKILL");
      const killDeadline = Date.now() + 2_000;
      while (stillThere() && Date.now() < killDeadline) await delay(POLL_MS);
    } finally {
      if (!stillThere()) forgetProcessGroup(pid);
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    // A process that never started is start()'s failure to report, not a lost connection.
    if (this.child?.pid !== undefined) this.markClosed();
    this.onclose?.();
  }

  private markClosed: () => void = () => undefined;
  private readonly closedPromise = new Promise<void>((resolve) => {
    this.markClosed = resolve;
  });

  /**
   * Settles when the connection is over (the server exited or closed its
   * stdout, or we closed it). The SDK's in-place era probe does not notice a
   * server that dies while it waits, so a connect also races this.
   */
  whenClosed(): Promise<void> {
    return this.closedPromise;
  }
}
