/** Child-process helpers shared by the stdio, HTTP and fuzz tests. */
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { waitFor } from "@indus/testkit";

export const PACKAGE_DIR = join(__dirname, "..", "..");
export const STDIO_HOST = join(PACKAGE_DIR, "test", "fixtures", "host-stdio.mjs");
export const HTTP_HOST = join(PACKAGE_DIR, "test", "fixtures", "host-http.mjs");

/** A JSON-RPC message as the tests read it; a line that was not JSON is kept as `{ unparsable }`. */
export interface RpcMessage {
  readonly jsonrpc?: string;
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: {
    readonly content?: readonly { readonly type: string; readonly text?: string }[];
    readonly [key: string]: unknown;
  };
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly unparsable?: string;
}

/** A child speaking newline-delimited JSON-RPC, with its output collected. */
export interface LineChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: RpcMessage[];
  stderr(): string;
  send(frame: unknown): void;
  writeRaw(text: string): void;
  /** The first message `predicate` accepts (no deadline of its own; ends early if the child exits). */
  next(predicate: (message: RpcMessage) => boolean, what?: string): Promise<RpcMessage>;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnLineChild(script: string, args: string[] = [], nodeArgs: string[] = []): LineChild {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  const messages: RpcMessage[] = [];
  let stderr = "";
  // Set once the child exited and its output is all read: no message can come after.
  let closed = false;
  child.once("close", () => {
    closed = true;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.on("error", () => {});
  child.stdout.on("error", () => {});
  createInterface({ input: child.stdout }).on("line", (line) => {
    let message: RpcMessage;
    try {
      message = JSON.parse(line) as RpcMessage;
    } catch {
      message = { unparsable: line };
    }
    messages.push(message);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    messages,
    stderr: () => stderr,
    send: (frame) => child.stdin.write(`${JSON.stringify(frame)}\n`),
    writeRaw: (text) => child.stdin.write(text),
    next: (predicate, what = "a matching message from the child") =>
      waitFor(what, () => messages.find(predicate), {
        failure: () => (closed ? `the child exited; stderr: ${stderr}` : undefined),
      }),
    exited: () => exit,
  };
}

/** Starts host-http.mjs and resolves with its endpoint URL. */
export async function spawnHttpHost(
  args: string[] = [],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcessWithoutNullStreams; url: URL; stderr(): string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [...nodeArgs, HTTP_HOST, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // No deadline of its own: Jest's ceiling is the guard (a starved start can take long).
  const url = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolve(new URL(line.trim())));
    child.once("exit", (code) => reject(new Error(`http host exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
