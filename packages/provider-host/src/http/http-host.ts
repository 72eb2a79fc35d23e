/**
 * Streamable HTTP for many clients at once. Each MCP session gets its own SDK
 * `Server` and `StreamableHTTPServerTransport`; the host in front of them owns
 * everything the SDK leaves to "external middleware": routing by session id,
 * Host/Origin checks, the bearer token, the body bound, idle expiry and a
 * draining shutdown. In stateless mode there are no sessions at all: every
 * POST gets a fresh server and transport, so replicas behind a plain load
 * balancer need no affinity.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ToolBox } from "@indus/contract";
import { protocolFault } from "@indus/contract";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, isJSONRPCNotification, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { createProviderHost } from "../provider-host";
import type { ProviderHostInfo, ProviderHostOptions, RunningProviderHost } from "../provider-host";
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from "./request-body";
import { checkRequest, isLoopbackHost, loopbackHostNames, loopbackOrigins } from "./request-guard";
import type { GuardPolicy } from "./request-guard";

/** The environment variable holding the bearer token, unless told otherwise. */
export const DEFAULT_TOKEN_ENV = "INDUS_PROVIDER_HOST_TOKEN";

export interface HttpHostOptions extends ProviderHostOptions {
  readonly info?: ProviderHostInfo;
  /** Address to bind. Default `127.0.0.1`; anything non-loopback requires a token. */
  readonly host?: string;
  /** Port to bind; `0` (the default) picks a free one (see `port` on the result). */
  readonly port?: number;
  /** The MCP endpoint path. Default `/mcp`. */
  readonly path?: string;
  /** No sessions: a fresh server per POST, for replicas behind a load balancer. */
  readonly stateless?: boolean;
  /** Name of the environment variable with the bearer token. Default `INDUS_PROVIDER_HOST_TOKEN`. */
  readonly tokenEnv?: string;
  /** Where `tokenEnv` is looked up. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Accepted `Host` header values (`host:port`), or `"any"`. Default: the
   * loopback names with the bound port when bound to loopback; `"any"` when
   * bound elsewhere (the required token is then the guard).
   */
  readonly allowedHosts?: readonly string[] | "any";
  /** Origins accepted besides same-origin. Default: the loopback origins when bound to loopback. */
  readonly allowedOrigins?: readonly string[];
  /** Largest accepted request body in bytes. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Interval of SSE keep-alive comments. Default 15 s; 0 disables. */
  readonly keepAliveMs?: number;
  /** A session with no open request for this long is ended. Default 30 min; 0 never. */
  readonly idleTimeoutMs?: number;
  /** Concurrent sessions before new ones are refused with 503. Default 1000. */
  readonly maxSessions?: number;
  /** Answer POSTs with plain JSON instead of an SSE stream. Default false. */
  readonly jsonResponse?: boolean;
  /** How long `close()` waits for in-flight requests by default. Default 10 s. */
  readonly shutdownGraceMs?: number;
}

export interface HttpProviderHost {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  readonly port: number;
  readonly stateless: boolean;
  /** Live MCP sessions (always 0 in stateless mode). */
  readonly sessionCount: number;
  /** Requests currently being answered (open POSTs; SSE GET streams excluded). */
  readonly inFlight: number;
  readonly httpServer: HttpServer;
  /**
   * Graceful shutdown: stop accepting, answer new requests 503, let in-flight
   * requests finish for up to `graceMs`, then end every session and connection.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

interface Session {
  id?: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly running: RunningProviderHost;
  /** Open HTTP exchanges (POSTs and GET streams) of this session. */
  open: number;
  lastSeen: number;
  /** The open POST answering each JSON-RPC request id, for cancellation. */
  readonly answering: Map<RequestId, ServerResponse>;
}

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export async function serveHttp(box: ToolBox, options: HttpHostOptions = {}): Promise<HttpProviderHost> {
  const bindHost = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(bindHost);
  const tokenEnv = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const rawToken = (options.env ?? process.env)[tokenEnv];
  const token = rawToken !== undefined && rawToken.trim() !== "" ? rawToken.trim() : undefined;
  if (!loopback && token === undefined) {
    throw protocolFault(
      "transport",
      `refusing to serve MCP on non-loopback address ${bindHost} without a bearer token: set the ${tokenEnv} environment variable`,
    );
  }
  const endpointPath = options.path ?? "/mcp";
  const stateless = options.stateless === true;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const host = createProviderHost(box, options.info, options);

  const sessions = new Map<string, Session>();
  let pendingSessions = 0;
  let inFlight = 0;
  let draining = false;

  const newTransport = (sessionful: boolean, onInitialized?: (id: string) => void) =>
    new StreamableHTTPServerTransport({
      ...(sessionful && { sessionIdGenerator: randomUUID }),
      enableJsonResponse: options.jsonResponse === true,
      keepAliveMs,
      ...(onInitialized && { onsessioninitialized: onInitialized }),
    });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    request.on("error", ignore);
    response.on("error", ignore);
    let pathname: string;
    try {
      pathname = new URL(request.url ?? "/", "http://host.invalid").pathname;
    } catch {
      return sendError(response, 400, -32600, "Bad Request: malformed request target");
    }
    if (pathname === "/healthz" && (request.method === "GET" || request.method === "HEAD")) {
      return sendHealth(response, draining);
    }
    if (pathname !== endpointPath) return sendError(response, 404, -32000, "Not Found");
    const verdict = checkRequest(request, policy);
    if (verdict.kind === "forbidden") return sendError(response, 403, -32000, verdict.reason);
    if (verdict.kind === "unauthorized") {
      return sendError(response, 401, -32000, verdict.reason, {
        "WWW-Authenticate": 'Bearer realm="indus-provider-host"',
      });
    }
    if (draining) {
      return sendError(response, 503, -32000, "Service Unavailable: shutting down", { Connection: "close" });
    }
    switch (request.method) {
      case "POST":
        inFlight++;
        response.once("close", () => inFlight--);
        return handlePost(request, response);
      case "GET":
      case "DELETE":
        if (stateless) return sendMethodNotAllowed(response, "POST");
        return handleSessionRequest(request, response, undefined);
      default:
        return sendMethodNotAllowed(response, stateless ? "POST" : "GET, POST, DELETE");
    }
  }

  async function handlePost(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isJsonContentType(request.headers["content-type"])) {
      request.resume();
      return sendError(response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body = await readJsonBody(request, maxBodyBytes);
    switch (body.kind) {
      case "aborted":
        return;
      case "too-large":
        return sendError(response, 413, -32000, `Payload Too Large: request body exceeds ${maxBodyBytes} bytes`, {
          Connection: "close",
        });
      case "malformed":
        return sendError(response, 400, -32700, "Parse error: Invalid JSON");
      case "json":
        break;
    }
    if (stateless) return serveStateless(request, response, body.value);
    if (request.headers["mcp-session-id"] !== undefined) return handleSessionRequest(request, response, body.value);
    if (!containsInitialize(body.value)) {
      return sendError(response, 400, -32000, "Bad Request: No valid session ID provided");
    }
    return openSession(request, response, body.value);
  }

  async function serveStateless(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const transport = newTransport(false);
    const running = await host.connect(transport);
    // Nothing can receive a result once this exchange is over: end its calls.
    response.once("close", () => void running.cancel());
    await transport.handleRequest(request, response, body);
  }

  async function openSession(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size + pendingSessions >= maxSessions) {
      return sendError(response, 503, -32000, "Service Unavailable: too many sessions", { "Retry-After": "5" });
    }
    pendingSessions++;
    let session: Session | undefined;
    try {
      const transport = newTransport(true, (id) => {
        if (session === undefined) return;
        session.id = id;
        sessions.set(id, session);
      });
      const running = await host.connect(transport);
      session = { transport, running, open: 0, lastSeen: Date.now(), answering: new Map() };
      const opened = session;
      void running.waiting().then(() => {
        if (opened.id !== undefined) sessions.delete(opened.id);
      });
      await exchange(opened, request, response, body);
      // The initialize was refused (bad headers, bad frame): no session exists.
      if (transport.sessionId === undefined) await running.cancel();
    } finally {
      pendingSessions--;
    }
  }

  async function handleSessionRequest(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const id = request.headers["mcp-session-id"];
    if (typeof id !== "string" || id === "") {
      return sendError(response, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    }
    const session = sessions.get(id);
    if (session === undefined) return sendError(response, 404, -32001, "Session not found");
    return exchange(session, request, response, body);
  }

  async function exchange(session: Session, request: IncomingMessage, response: ServerResponse, body: unknown) {
    session.open++;
    session.lastSeen = Date.now();
    const requestIds = messagesOf(body)
      .filter(isJSONRPCRequest)
      .map((message) => message.id);
    for (const id of requestIds) session.answering.set(id, response);
    response.once("close", () => {
      session.open--;
      session.lastSeen = Date.now();
      for (const id of requestIds) if (session.answering.get(id) === response) session.answering.delete(id);
    });
    await session.transport.handleRequest(request, response, body);
    for (const id of cancelledIds(body)) endCancelledExchange(session, id);
  }

  /**
   * A cancelled request gets no response (MCP), so the SDK would hold its
   * POST open until the client hangs up, which the SDK client does not do;
   * the open exchange would then block idle expiry and a graceful drain.
   * End it: the SSE stream is closed cleanly; a JSON-mode answer, which has
   * no clean way to end without a body, is cut.
   */
  function endCancelledExchange(session: Session, id: RequestId): void {
    const answering = session.answering.get(id);
    if (answering === undefined) return;
    if (options.jsonResponse === true) answering.destroy();
    else session.transport.closeSSEStream(id);
  }

  const httpServer = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendError(response, 500, -32603, "Internal error");
      else response.destroy();
    });
  });
  httpServer.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      httpServer.off("listening", onListening);
      reject(
        protocolFault(
          "transport",
          `provider host could not listen on ${bindHost}:${options.port ?? 0}: ${error.message}`,
          error,
        ),
      );
    };
    const onListening = () => {
      httpServer.off("error", onError);
      resolve();
    };
    httpServer.once("error", onError);
    httpServer.once("listening", onListening);
    httpServer.listen(options.port ?? 0, bindHost);
  });
  const port = (httpServer.address() as AddressInfo).port;
  const policy: GuardPolicy = buildPolicy(options, loopback, port, token);

  const sweeper =
    idleTimeoutMs > 0 && !stateless
      ? setInterval(
          () => {
            const now = Date.now();
            for (const session of sessions.values()) {
              if (session.open === 0 && now - session.lastSeen >= idleTimeoutMs) void session.running.cancel();
            }
          },
          Math.max(50, Math.min(idleTimeoutMs / 2, 60_000)),
        )
      : undefined;
  sweeper?.unref();

  let closing: Promise<void> | undefined;
  async function close(closeOptions: { readonly graceMs?: number } = {}): Promise<void> {
    closing ??= (async () => {
      draining = true;
      if (sweeper !== undefined) clearInterval(sweeper);
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const deadline = Date.now() + (closeOptions.graceMs ?? options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
      while (inFlight > 0 && Date.now() < deadline) await delay(20);
      await Promise.all([...sessions.values()].map((session) => session.running.cancel().catch(ignore)));
      httpServer.closeAllConnections();
      await stopped;
    })();
    return closing;
  }

  return {
    url: new URL(`http://${urlHost(bindHost)}:${port}${endpointPath}`),
    port,
    stateless,
    get sessionCount() {
      return sessions.size;
    },
    get inFlight() {
      return inFlight;
    },
    httpServer,
    close,
  };
}

function buildPolicy(
  options: HttpHostOptions,
  loopback: boolean,
  port: number,
  token: string | undefined,
): GuardPolicy {
  const lower = (values: readonly string[]) => new Set(values.map((value) => value.toLowerCase()));
  const allowedHosts =
    options.allowedHosts === "any"
      ? "any"
      : options.allowedHosts !== undefined
        ? lower(options.allowedHosts)
        : loopback
          ? lower(loopbackHostNames(port))
          : "any";
  const allowedOrigins = lower([...(loopback ? loopbackOrigins(port) : []), ...(options.allowedOrigins ?? [])]);
  return token === undefined ? { allowedHosts, allowedOrigins } : { allowedHosts, allowedOrigins, token };
}

function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** Request ids named by `notifications/cancelled` messages in a POST body. */
function cancelledIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of messagesOf(body)) {
    if (!isJSONRPCNotification(message) || message.method !== "notifications/cancelled") continue;
    const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof id === "string" || typeof id === "number") ids.push(id);
  }
  return ids;
}

/** True when a POST body holds an `initialize` request (alone or in a batch). */
function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return (header.split(";")[0] ?? "").trim().toLowerCase() === "application/json";
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function sendError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function sendMethodNotAllowed(response: ServerResponse, allow: string): void {
  sendError(response, 405, -32000, "Method not allowed.", { Allow: allow });
}

function sendHealth(response: ServerResponse, draining: boolean): void {
  response.writeHead(draining ? 503 : 200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  response.end(JSON.stringify({ status: draining ? "draining" : "ok" }));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function ignore(): void {}
