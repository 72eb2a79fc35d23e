/**
 * An MCP client that can be asked things (sampling, elicitation, roots), on
 * the v2 SDK, connected to `indusr mcp serve` (stdio or Streamable HTTP) or to
 * a server directly. It records what the server asked it and every log and
 * stray error, so tests can check that each request reached the client whose
 * call caused it and nobody else.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Transport } from "@modelcontextprotocol/client";
import { BIN, type Sandbox } from "./run-cli";

export interface Asked {
  readonly sampling: string[];
  readonly elicitation: string[];
  roots: number;
  readonly logs: { level: string; data: unknown }[];
  readonly errors: Error[];
}

export interface RelayClient {
  readonly client: Client;
  readonly asked: Asked;
  /** The text this client answers every sampling request with. */
  readonly marker: string;
  readonly rootUri: string;
}

/** Capabilities a full host declares: sampling, form elicitation, roots with change notices. */
export const HOST_CAPABILITIES = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };

function promptText(params: { messages: { content: unknown }[] }): string {
  return params.messages
    .map((message) => {
      const content = message.content as { type?: string; text?: string };
      return content.type === "text" ? (content.text ?? "") : "";
    })
    .join("\n");
}

/** A client in the 2025 era (push-style server requests), or pinned to 2026-07-28 (`input_required` rounds). */
export type Era = "2025" | "2026-07-28";

export function relayClient(marker: string, era: Era = "2025"): RelayClient {
  const pinned = era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {};
  const client = new Client(
    { name: `relay-${marker}`, version: "1.0.0" },
    { capabilities: HOST_CAPABILITIES, ...pinned },
  );
  const asked: Asked = { sampling: [], elicitation: [], roots: 0, logs: [], errors: [] };
  const rootUri = `file:///tmp/roots-of-${marker}`;
  client.setRequestHandler("sampling/createMessage", (request) => {
    asked.sampling.push(promptText(request.params));
    return {
      role: "assistant",
      content: { type: "text", text: `${marker} answers: ${promptText(request.params)}` },
      model: `model-of-${marker}`,
      stopReason: "endTurn",
    };
  });
  client.setRequestHandler("elicitation/create", (request) => {
    asked.elicitation.push(request.params.message);
    return { action: "accept", content: { name: `name-of-${marker}`, check: true } };
  });
  client.setRequestHandler("roots/list", () => {
    asked.roots += 1;
    return { roots: [{ uri: rootUri, name: `root of ${marker}` }] };
  });
  client.setNotificationHandler("notifications/message", (notification) => {
    asked.logs.push({ level: notification.params.level, data: notification.params.data });
  });
  client.onerror = (error) => asked.errors.push(error);
  return { client, asked, marker, rootUri };
}

/** Resolves with the gateway's URL once `indusr mcp serve --http` says where it listens. */
export function servedUrl(child: ChildProcess): Promise<URL> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`gateway exited ${code}: ${seen}`)));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** `indusr mcp serve` flags for the gateway under test: `--names as-is` when this build has it. */
export async function gatewayFlags(sandbox: Sandbox): Promise<string[]> {
  const help = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [BIN, "mcp", "serve", "--help"], { env: sandbox.env });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("close", () => resolve(out));
  });
  // Relaying is the point here, not the read-only default: every mounted tool is published.
  return [...(help.includes("--names") ? ["--names", "as-is"] : []), "--profile", "survey"];
}

/** `flags` publishing every mounted tool unless they name a profile (the default publishes only read-only ones). */
function surveyed(flags: readonly string[]): string[] {
  return flags.includes("--profile") ? [...flags] : [...flags, "--profile", "survey"];
}

export interface HttpGateway {
  readonly url: URL;
  /** What the gateway wrote to stderr so far (its boot warnings come once its servers settle, after the line saying where it listens). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startHttpGateway(sandbox: Sandbox, config: string, flags: string[]): Promise<HttpGateway> {
  const child = spawn(
    process.execPath,
    [BIN, "mcp", "serve", "--http", "--port", "0", ...surveyed(flags), "--mcp", config],
    {
      cwd: sandbox.cwd,
      env: sandbox.env,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    return { url: await servedUrl(child), stderr: () => stderr, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/**
 * Hands the client one inbound message per macrotask. The SDK client (2.4)
 * dispatches notifications a microtask late but responses at once, so a
 * progress notification and the result parsed from one stdio chunk arrive
 * response first and the progress is dropped (16 of 20 calls straight to
 * server-everything). Spacing the messages makes the client a faithful
 * witness of what the gateway sent, in the order it sent it.
 */
export function inOrder<T extends Transport>(inner: T): T {
  let queue = Promise.resolve();
  const later = (deliver: () => void) => {
    queue = queue.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(deliver);
  };
  return new Proxy(inner, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value: unknown) {
      if (property === "onmessage" && typeof value === "function") {
        const deliver = value as NonNullable<Transport["onmessage"]>;
        target.onmessage = (message, extra) => later(() => deliver(message, extra));
        return true;
      }
      if (property === "onclose" && typeof value === "function") {
        const deliver = value as () => void;
        target.onclose = () => later(deliver);
        return true;
      }
      return Reflect.set(target, property, value, target);
    },
  });
}

/** A stdio transport that runs its own gateway, one per client, as MCP hosts do. */
export function stdioGatewayTransport(sandbox: Sandbox, config: string, flags: string[]): Transport {
  return inOrder(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "serve", "--stdio", ...surveyed(flags), "--mcp", config],
      cwd: sandbox.cwd,
      env: sandbox.env as Record<string, string>,
      stderr: "ignore",
    }),
  );
}

export function httpTransport(url: URL): Transport {
  return inOrder(new StreamableHTTPClientTransport(url));
}

/** The name a mounted tool or prompt has through the gateway: as-is, or `<server>__<name>`. */
export function mountedName(names: readonly string[], server: string, name: string): string {
  if (names.includes(name)) return name;
  const prefixed = `${server}__${name}`;
  if (names.includes(prefixed)) return prefixed;
  throw new Error(`neither ${name} nor ${prefixed} among ${names.join(", ")}`);
}
