/**
 * HTTP servers for tests, all on 127.0.0.1 with ephemeral ports: a real
 * Streamable HTTP MCP server (the SDK's server transport) that records every
 * request and can forget its sessions, and the HTTP fault fixtures (401, 500,
 * connection reset, accept-and-never-answer). Endpoint and fleet tests share them.
 */
import http from "node:http";
import type net from "node:net";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface RecordedRequest {
  readonly method: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The JSON-RPC method of a POST, when the server read its body (`resetFirst`). */
  readonly rpcMethod?: string;
}

export interface TestHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server | net.Server, sockets: Set<net.Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

function trackSockets(server: http.Server | net.Server): Set<net.Socket> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return sockets;
}

function buildMcpServer(name: string): McpServer {
  const server = new McpServer({ name, version: "0.0.1" }, { instructions: `${name} over Streamable HTTP` });
  server.registerTool("echo", { description: "Echoes", inputSchema: { message: z.string() } }, ({ message }) => ({
    content: [{ type: "text", text: `${name}: ${message}` }],
  }));
  server.registerTool(
    "sleep",
    { description: "Sleeps ms milliseconds", inputSchema: { ms: z.number() } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: "text", text: `slept ${ms}` }] };
    },
  );
  return server;
}

/** True the first time each of `methods` is asked about. */
function resetOnce(methods: readonly string[]): (method: string | undefined) => boolean {
  const left = new Set(methods);
  return (method) => method !== undefined && left.delete(method);
}

/** A request's body parsed as JSON (undefined when it is not JSON). */
async function jsonBody(req: http.IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += (chunk as Buffer).toString();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface StreamableTestServer extends TestHttpServer {
  readonly requests: RecordedRequest[];
  /** Session ids the server saw a DELETE for. */
  readonly terminated: string[];
  /** How many sessions were initialized. */
  initializations(): number;
  /** Forget every session, as a restarted server would: their ids now get 404. */
  forgetSessions(): void;
}

/** A stateful Streamable HTTP MCP server built on the SDK's server transport. */
export async function startStreamableServer(
  options: {
    name?: string;
    jsonResponse?: boolean;
    path?: string;
    /** JSON-RPC methods whose first POST has its connection reset before any answer. */
    resetFirst?: readonly string[];
  } = {},
): Promise<StreamableTestServer> {
  const name = options.name ?? "http-fixture";
  const path = options.path ?? "/mcp";
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const requests: RecordedRequest[] = [];
  const terminated: string[] = [];
  let initialized = 0;
  const resetter = options.resetFirst === undefined ? undefined : resetOnce(options.resetFirst);
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const body = resetter === undefined || req.method !== "POST" ? undefined : await jsonBody(req);
      const rpcMethod = (body as { method?: string } | undefined)?.method;
      requests.push({ method: req.method ?? "", headers: req.headers, ...(rpcMethod ? { rpcMethod } : {}) });
      if (resetter?.(rpcMethod) === true) {
        req.socket.destroy();
        return;
      }
      if (!req.url?.startsWith(path)) {
        res.writeHead(404).end();
        return;
      }
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string") {
        const session = sessions.get(sessionId);
        if (!session) {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
          return;
        }
        if (req.method === "DELETE") terminated.push(sessionId);
        await session.transport.handleRequest(req, res, body);
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(400).end();
        return;
      }
      const server = buildMcpServer(name);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: options.jsonResponse ?? false,
        onsessioninitialized: (id) => {
          initialized += 1;
          sessions.set(id, { transport, server });
        },
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const sockets = trackSockets(httpServer);
  const port = await listen(httpServer);
  const closeHttp = closer(httpServer, sockets);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    terminated,
    initializations: () => initialized,
    forgetSessions() {
      for (const { server } of sessions.values()) void server.close().catch(() => undefined);
      sessions.clear();
    },
    async close() {
      for (const { server } of sessions.values()) await server.close().catch(() => undefined);
      sessions.clear();
      await closeHttp();
    },
  };
}

export type HttpFaultMode = "401" | "500" | "reset" | "silent";

export interface HttpFaultServer extends TestHttpServer {
  /** Requests that reached the server. */
  hits(): number;
}

/**
 * An HTTP server that fails every request one way: `401` (with a bearer
 * challenge), `500`, `reset` (destroys the connection), or `silent` (accepts
 * the connection and never answers).
 */
export async function startHttpFault(mode: HttpFaultMode): Promise<HttpFaultServer> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits += 1;
    req.resume();
    switch (mode) {
      case "401":
        res
          .writeHead(401, { "www-authenticate": 'Bearer realm="fixture"', "content-type": "text/plain" })
          .end("unauthorized");
        return;
      case "500":
        res.writeHead(500, { "content-type": "text/plain" }).end("boom");
        return;
      case "reset":
        req.socket.destroy();
        return;
      case "silent":
        return;
    }
  });
  const sockets = trackSockets(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/mcp`, port, hits: () => hits, close: closer(server, sockets) };
}
