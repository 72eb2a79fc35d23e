/**
 * The 2025-era leg of the HTTP host: one MCP session per client, each with
 * its own SDK `Server` and Streamable HTTP transport. The host owns what the
 * SDK leaves to "external middleware": routing by `Mcp-Session-Id`, the
 * session limit (where the session idle longest makes room), idle expiry,
 * binding a session to the caller that opened it, and ending cancelled
 * exchanges. Session ids may
 * carry a replica marker (`sessionIdPrefix`) so a load balancer can send a
 * session's later requests to the replica that minted it.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
} from "@modelcontextprotocol/server";
import type { AuthInfo, RequestId } from "@modelcontextprotocol/server";
import type { ProviderHost, RunningProviderHost } from "../provider-host";
import { markReachability } from "../relay/session-registry";
import { sendError, sendErrorReply } from "./http-replies";
import { SessionTransport } from "./session-transport";

export interface LegacySessionOptions {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly keepAliveMs: number;
  readonly jsonResponse: boolean;
  readonly sessionIdPrefix: string;
  /** Who a request comes from: a session answers only the caller that opened it. Default: no binding. */
  readonly ownerOf?: (request: IncomingMessage) => string | undefined;
}

interface Session {
  id?: string;
  readonly transport: SessionTransport;
  readonly running: RunningProviderHost;
  /** Open HTTP exchanges (POSTs and GET streams) of this session. */
  open: number;
  /** Open GET streams: the only way to the client outside a request. */
  listening: number;
  lastSeen: number;
  /** The caller that opened the session (see `ownerOf`). */
  readonly owner: string | undefined;
  /** The open POST answering each JSON-RPC request id, for cancellation. */
  readonly answering: Map<RequestId, ServerResponse>;
}

export interface LegacySessions {
  readonly count: number;
  /** A POST from a 2025-era client: an `initialize` opens a session, anything else needs one. */
  post(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  /** A GET (event stream) or DELETE (end) of an existing session. */
  sessionRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Stops idle expiry and ends every session. */
  closeAll(): Promise<void>;
}

export function legacySessions(host: ProviderHost, options: LegacySessionOptions): LegacySessions {
  return new SessionTable(host, options);
}

/** The open sessions by id, and how one is opened, found, used, evicted and expired. */
class SessionTable implements LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private pendingSessions = 0;
  private readonly sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly host: ProviderHost,
    private readonly options: LegacySessionOptions,
  ) {
    const { idleTimeoutMs } = options;
    this.sweeper =
      idleTimeoutMs > 0
        ? setInterval(() => this.expireIdle(), Math.max(50, Math.min(idleTimeoutMs / 2, 60_000)))
        : undefined;
    this.sweeper?.unref();
  }

  get count(): number {
    return this.sessions.size;
  }

  async post(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    // The 2025 transport of SDK 1.x answered this -32700, and clients of the host saw that; v2 says -32600.
    if (!messagesOf(body).every(isJSONRPCMessage)) {
      return sendError(response, 400, -32700, "Parse error: not a JSON-RPC message");
    }
    if (request.headers["mcp-session-id"] !== undefined) return this.routed(request, response, body);
    if (!containsInitialize(body)) return sendError(response, 400, -32000, "Bad Request: No valid session ID provided");
    return this.open(request, response, body);
  }

  sessionRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return this.routed(request, response, undefined);
  }

  async closeAll(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => session.running.cancel().catch(() => {})));
  }

  private newTransport(onInitialized: (id: string) => void): SessionTransport {
    return new SessionTransport({
      sessionIdGenerator: () => `${this.options.sessionIdPrefix}${randomUUID()}`,
      enableJsonResponse: this.options.jsonResponse,
      keepAliveMs: this.options.keepAliveMs,
      onsessioninitialized: onInitialized,
    });
  }

  private async open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const { sessions, options } = this;
    if (sessions.size + this.pendingSessions >= options.maxSessions && !this.evictLeastRecentlyUsed()) {
      const message = "Service Unavailable: too many sessions";
      return sendErrorReply(response, { status: 503, code: -32000, message, headers: { "Retry-After": "5" } });
    }
    this.pendingSessions++;
    let session: Session | undefined;
    try {
      const transport = this.newTransport((id) => {
        if (session === undefined) return;
        session.id = id;
        sessions.set(id, session);
      });
      const running = await this.host.connect(transport, (request as { auth?: AuthInfo }).auth);
      const owner = options.ownerOf?.(request);
      session = { transport, running, open: 0, listening: 0, lastSeen: Date.now(), owner, answering: new Map() };
      const opened = session;
      markReachability(running.server, () => opened.listening > 0);
      void running.waiting().then(() => {
        if (opened.id !== undefined) sessions.delete(opened.id);
      });
      await this.exchange(opened, request, response, body);
      // The initialize was refused (bad headers, bad frame): no session exists.
      if (transport.sessionId === undefined) await running.cancel();
    } finally {
      this.pendingSessions--;
    }
  }

  private async routed(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const id = request.headers["mcp-session-id"];
    if (typeof id !== "string" || id === "") {
      return sendError(response, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    }
    const session = this.sessions.get(id);
    // Another caller's session id is as good as none: it is not theirs to use.
    if (session === undefined || (session.owner !== undefined && session.owner !== this.options.ownerOf?.(request))) {
      return sendError(response, 404, -32001, "Session not found");
    }
    return this.exchange(session, request, response, body);
  }

  private async exchange(session: Session, request: IncomingMessage, response: ServerResponse, body: unknown) {
    const reused = reusedId(session, body);
    if (reused !== undefined) return refuseReusedId(response, reused);
    session.open++;
    session.lastSeen = Date.now();
    const listening = request.method === "GET";
    if (listening) session.listening++;
    const requestIds = messagesOf(body)
      .filter(isJSONRPCRequest)
      .map((message) => message.id);
    for (const id of requestIds) session.answering.set(id, response);
    response.once("close", () => {
      session.open--;
      if (listening) session.listening--;
      session.lastSeen = Date.now();
      for (const id of requestIds) if (session.answering.get(id) === response) session.answering.delete(id);
    });
    await session.transport.handleRequest(request, response, body);
    for (const id of cancelledIds(body)) this.endCancelledExchange(session, id);
  }

  /**
   * A cancelled request gets no response (MCP), so the SDK would hold its
   * POST open until the client hangs up, which the SDK client does not do;
   * the open exchange would then block idle expiry and a graceful drain.
   * End it: the SSE stream is closed cleanly; a JSON-mode answer, which has
   * no clean way to end without a body, is cut.
   */
  private endCancelledExchange(session: Session, id: RequestId): void {
    const answering = session.answering.get(id);
    if (answering === undefined) return;
    if (this.options.jsonResponse) answering.destroy();
    else session.transport.closeSSEStream(id);
  }

  /**
   * At the cap, the session idle longest (no open exchange) is ended to make
   * room: clients that never end their sessions (some never send DELETE)
   * must not lock new ones out. False when every session is busy.
   */
  private evictLeastRecentlyUsed(): boolean {
    let oldest: Session | undefined;
    for (const session of this.sessions.values()) {
      if (session.open === 0 && (oldest === undefined || session.lastSeen < oldest.lastSeen)) oldest = session;
    }
    if (oldest?.id === undefined) return false;
    this.sessions.delete(oldest.id);
    void oldest.running.cancel();
    return true;
  }

  /** Ends the sessions with no open exchange for the idle timeout. */
  private expireIdle(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (session.open === 0 && now - session.lastSeen >= this.options.idleTimeoutMs) void session.running.cancel();
    }
  }
}

/**
 * A request id still in flight in the session (or twice in one batch): the
 * SDK's transport would map it to the new POST and leave the first one
 * unanswered forever, so the new request is refused instead.
 */
function reusedId(session: Session, body: unknown): RequestId | undefined {
  const seen = new Set<RequestId>();
  for (const message of messagesOf(body).filter(isJSONRPCRequest)) {
    if (session.answering.has(message.id) || seen.has(message.id)) return message.id;
    seen.add(message.id);
  }
  return undefined;
}

function refuseReusedId(response: ServerResponse, id: RequestId): void {
  const message = `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight in this session`;
  response.writeHead(400, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message } }));
}

function isJSONRPCMessage(message: unknown): boolean {
  return isJSONRPCRequest(message) || isJSONRPCNotification(message) || isJSONRPCResponse(message);
}

function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** Request ids named by `notifications/cancelled` messages in a POST body. */
function cancelledIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of messagesOf(body)) {
    // The name first: a failed schema check costs more than the rest of this function.
    const named = (message as { method?: unknown } | null)?.method === "notifications/cancelled";
    if (!named || !isJSONRPCNotification(message)) continue;
    const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof id === "string" || typeof id === "number") ids.push(id);
  }
  return ids;
}

/** True when a POST body holds an `initialize` request (alone or in a batch). */
function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}
