/**
 * The stdio transport for a single client (how Claude Desktop and most local
 * clients launch a server). It wraps the SDK's stdio transport with the three
 * behaviours a long-lived child process needs and the SDK leaves out:
 * end-of-input ends the session (MCP's shutdown signal for stdio), a closed
 * output pipe (EPIPE) ends it quietly instead of crashing the process, and a
 * line that is not JSON-RPC is answered with a JSON-RPC error.
 */
import type { Readable, Writable } from "node:stream";
import type { ToolBox } from "@indus/contract";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createProviderHost } from "./provider-host";
import type { ProviderHostInfo, ProviderHostOptions, RunningProviderHost } from "./provider-host";

export interface StdioHostOptions extends ProviderHostOptions {
  readonly info?: ProviderHostInfo;
  /** Defaults to `process.stdin`. */
  readonly stdin?: Readable;
  /** Defaults to `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
}

/**
 * Serves `box` to the one client on stdin/stdout. `waiting()` resolves when
 * stdin ends or stdout breaks, so a host process can exit then:
 *
 *     const running = await serveStdio(box);
 *     await running.waiting();
 *     process.exit(0);
 */
export async function serveStdio(box: ToolBox, options: StdioHostOptions = {}): Promise<RunningProviderHost> {
  const host = createProviderHost(box, options.info, options);
  const transport = new StdioHostTransport(options.stdin ?? process.stdin, options.stdout ?? process.stdout);
  return host.connect(transport);
}

/** The SDK stdio transport, plus end-of-input, broken-pipe and parse-error handling. */
export class StdioHostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly inner: StdioServerTransport;
  private closed = false;
  private outputBroken = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
  ) {
    this.inner = new StdioServerTransport(stdin, stdout);
    this.inner.onmessage = (message) => this.onmessage?.(message);
    this.inner.onerror = (error) => this.handleInnerError(error);
    this.inner.onclose = () => this.finish();
  }

  async start(): Promise<void> {
    this.stdin.on("end", this.onInputEnded);
    this.stdin.on("close", this.onInputEnded);
    this.stdout.on("error", this.onOutputError);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.outputBroken || this.stdout.destroyed || this.stdout.writableEnded) return;
    await this.inner.send(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.inner.close();
    this.finish();
  }

  private readonly onInputEnded = () => {
    void this.close();
  };

  private readonly onOutputError = (error: Error) => {
    // EPIPE and friends: the client is gone. Release a writer waiting on
    // 'drain' (it never comes on a broken pipe) and end the session.
    this.outputBroken = true;
    this.stdout.emit("drain");
    this.onerror?.(error);
    void this.close();
  };

  private handleInnerError(error: Error): void {
    const code = parseErrorCode(error);
    if (code !== undefined) {
      const reply = {
        jsonrpc: "2.0",
        id: null,
        error: { code, message: code === ErrorCode.ParseError ? "Parse error" : "Invalid Request" },
      } as unknown as JSONRPCMessage;
      this.send(reply).catch(() => {});
    }
    this.onerror?.(error);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("end", this.onInputEnded);
    this.stdin.off("close", this.onInputEnded);
    // Keep a listener on stdout: a late EPIPE must not become an uncaught error.
    this.stdout.off("error", this.onOutputError);
    this.stdout.on("error", ignore);
    this.onclose?.();
  }
}

function ignore(): void {}

/**
 * The JSON-RPC code for a line the SDK could not read: not JSON at all, or
 * JSON that is not a JSON-RPC message (a schema error carries `issues`).
 */
function parseErrorCode(error: Error): ErrorCode | undefined {
  if (error instanceof SyntaxError) return ErrorCode.ParseError;
  if (Array.isArray((error as { issues?: unknown }).issues)) return ErrorCode.InvalidRequest;
  return undefined;
}
