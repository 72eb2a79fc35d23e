/**
 * The stdio wire for a single client (how Claude Desktop and most local
 * clients launch a server): newline-delimited JSON-RPC on stdin/stdout. The
 * SDK's own stdio transport silently skips a line that is not JSON; MCP wants
 * it answered, so this transport frames the lines itself and answers a line
 * that is not JSON with -32700 and JSON that is not JSON-RPC with -32600.
 * It also ends on end-of-input (MCP's shutdown signal for stdio) and on a
 * closed output pipe (EPIPE), quietly, instead of crashing the process.
 *
 * A response written right after a progress notification waits a moment
 * (`PROGRESS_GAP_MS`): the SDK's client drops a progress report it reads in
 * the same chunk as the result that follows it (typescript-sdk#2580), and a
 * relayed server's last report and its result arrive back to back. Whatever
 * is written after a held response waits behind it, so order is kept.
 */
import type { Readable, Writable } from "node:stream";
import { TEXT_SLICE_UNITS, writeSlices } from "@indus/contract";
import { ProtocolErrorCode, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { bodyTooDeep } from "../message-depth";
import { ESCAPE_UNITS, holdsLongString, jsonPieces } from "./json-pieces";

/**
 * How long after a progress notification a response is held, so the client
 * reads them apart. Only calls that just reported progress pay it.
 */
export const PROGRESS_GAP_MS = 10;

/** A line longer than this ends the connection: no client sends one. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

/** What `send` gives when the line went out at once (see `post`). */
const WRITTEN: Promise<void> = Promise.resolve();

export class StdioHostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sees each parsed line before the SDK does; true: it took the message (see `raw-calls.ts`). */
  takeRaw?: (value: unknown) => boolean;

  private partial: Buffer | undefined;
  /** Messages waiting behind a response held after progress (see `PROGRESS_GAP_MS`). */
  private held: { message: JSONRPCMessage; written: () => void }[] = [];
  private releaseTimer: NodeJS.Timeout | undefined;
  /** The large line being written slice by slice (see `afterSlicing`). */
  private slicing: Promise<void> | undefined;
  private lastProgressAt = Number.NEGATIVE_INFINITY;
  private started = false;
  private closed = false;
  private outputBroken = false;
  private resolveEnded!: () => void;
  private readonly ended = new Promise<void>((resolve) => (this.resolveEnded = resolve));

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
  ) {}

  /** Resolves once the wire is closed, whoever installed `onclose`. */
  whenClosed(): Promise<void> {
    return this.ended;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  start(): Promise<void> {
    if (this.started) throw new Error("StdioHostTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("end", this.onInputEnded);
    this.stdin.on("close", this.onInputEnded);
    this.stdin.on("error", this.onInputError);
    this.stdout.on("error", this.onOutputError);
    // A stream paused by its owner (or unpiped) does not flow on a new 'data' listener alone.
    this.stdin.resume();
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onInputEnded);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.held.length > 0 || (isResponse(message) && this.sinceProgress() < PROGRESS_GAP_MS)) {
      return new Promise((resolve) => {
        this.held.push({ message, written: resolve });
        this.scheduleRelease();
      });
    }
    return this.write(message);
  }

  /**
   * Sends with nothing to wait for: when the line went out at once no
   * reaction job is queued (a raw call's answer, one per call).
   */
  post(message: JSONRPCMessage): void {
    const sent = this.send(message);
    if (sent !== WRITTEN) sent.catch(ignore);
  }

  private write(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.outputBroken || this.stdout.destroyed || this.stdout.writableEnded)
      return Promise.resolve();
    if ("method" in message && message.method === "notifications/progress") this.lastProgressAt = performance.now();
    // A relayed large result is written from its parts, never as one more whole copy.
    if (holdsLongString(message)) return this.afterSlicing(jsonPieces(message));
    const line = JSON.stringify(message);
    if (this.slicing || line.length > TEXT_SLICE_UNITS) return this.afterSlicing([line]);
    if (this.stdout.write(`${line}\n`)) return WRITTEN;
    return new Promise((resolve) => this.stdout.once("drain", resolve));
  }

  /**
   * A large line (a relayed 50 MB result) goes out in slices, each after the
   * pipe has taken the one before: written whole, or all its slices at once,
   * it is held once more as bytes until the client has read it. Later lines
   * wait behind it.
   */
  private afterSlicing(pieces: Iterable<string>): Promise<void> {
    const written = (this.slicing ?? Promise.resolve()).then(() => this.writePieces(pieces));
    this.slicing = written;
    void written.then(() => {
      if (this.slicing === written) this.slicing = undefined;
    });
    return written;
  }

  /** Writes a line's pieces and its newline: short ones gathered into one write, long ones in slices. */
  private async writePieces(pieces: Iterable<string>): Promise<void> {
    let pending = "";
    for (const piece of pieces) {
      if (this.outputBroken || this.stdout.destroyed) return;
      if (pending.length + piece.length <= ESCAPE_UNITS) {
        pending += piece;
        continue;
      }
      await writeSlices(this.stdout, pending);
      pending = "";
      if (piece.length > ESCAPE_UNITS) await writeSlices(this.stdout, piece);
      else pending = piece;
    }
    if (!this.outputBroken) await writeSlices(this.stdout, `${pending}\n`);
  }

  private sinceProgress(): number {
    return performance.now() - this.lastProgressAt;
  }

  private scheduleRelease(): void {
    if (this.releaseTimer) return;
    const wait = Math.max(0, PROGRESS_GAP_MS - this.sinceProgress());
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      this.release();
    }, Math.ceil(wait));
  }

  /** Writes held messages in order, stopping again at a response that follows fresh progress. */
  private release(): void {
    while (this.held.length > 0) {
      const next = this.held[0]!;
      if (isResponse(next.message) && this.sinceProgress() < PROGRESS_GAP_MS) {
        this.scheduleRelease();
        return;
      }
      this.held.shift();
      void this.write(next.message).then(next.written);
    }
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.partial = undefined;
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    for (const { written } of this.held.splice(0)) written();
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onInputEnded);
    this.stdin.off("close", this.onInputEnded);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    // Keep a listener on both pipes: a late EPIPE must not become an uncaught error.
    this.stdout.off("error", this.onOutputError);
    this.stdout.on("error", ignore);
    this.stdin.off("error", this.onInputError);
    this.stdin.on("error", ignore);
    this.onclose?.();
    this.resolveEnded();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer) => {
    let data = chunk;
    if (this.partial !== undefined) {
      data = Buffer.concat([this.partial, chunk]);
      this.partial = undefined;
    }
    let start = 0;
    for (let newline = data.indexOf(NEWLINE); newline !== -1; newline = data.indexOf(NEWLINE, start)) {
      this.readLine(data.toString("utf8", start, newline));
      start = newline + 1;
      if (this.closed) return;
    }
    if (start >= data.length) return;
    if (data.length - start > MAX_LINE_BYTES) {
      this.onerror?.(new Error(`stdio line exceeds ${MAX_LINE_BYTES} bytes`));
      void this.close();
      return;
    }
    this.partial = data.subarray(start);
  };

  private readLine(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reject(ProtocolErrorCode.ParseError, "Parse error", error);
      return;
    }
    const deep = bodyTooDeep(value);
    if (deep !== undefined) {
      this.reject(ProtocolErrorCode.InvalidRequest, `Invalid Request: ${deep.reason}`, new Error(deep.reason), deep.id);
      return;
    }
    if (this.takeRaw?.(value) === true) return;
    this.deliver(value);
  }

  /** Hands a parsed line to the SDK, as read (also a raw call replayed for its answer). */
  deliver(value: unknown): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.reject(ProtocolErrorCode.InvalidRequest, "Invalid Request", error);
      return;
    }
    this.onmessage?.(message);
  }

  private reject(code: number, message: string, cause: unknown, id: unknown = null): void {
    const reply = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(reply).catch(ignore);
    this.onerror?.(cause instanceof Error ? cause : new Error(String(cause)));
  }

  private readonly onInputEnded = () => {
    void this.close();
  };

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onOutputError = (error: Error) => {
    // EPIPE and friends: the client is gone. Release a writer waiting on
    // 'drain' (it never comes on a broken pipe) and end the session.
    this.outputBroken = true;
    this.stdout.emit("drain");
    this.onerror?.(error);
    void this.close();
  };
}

/** A JSON-RPC response (result or error), as opposed to a request or notification. */
function isResponse(message: JSONRPCMessage): boolean {
  return !("method" in message);
}

function ignore(): void {}
