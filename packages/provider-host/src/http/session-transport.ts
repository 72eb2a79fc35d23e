/**
 * The wire of one 2025-era Streamable HTTP session, written on Node's own
 * request and response. The SDK's `NodeStreamableHTTPServerTransport` serves
 * the same protocol through its web-standard transport, so every POST built a
 * web `Request` (with an `AbortSignal`), a `ReadableStream` for the SSE answer
 * and a `Response` that was then pumped back into Node: on the gateway that
 * was a third of the HTTP host's CPU per call. This transport keeps the SDK's
 * answers (status codes, JSON-RPC error codes and messages, SSE framing and
 * headers) and validates messages with the SDK's own schema; it leaves out
 * what the host never configures (event store and resumption, DNS-rebinding
 * checks, which the host does in front, and scope challenges).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { SUPPORTED_PROTOCOL_VERSIONS, isJSONRPCRequest } from "@modelcontextprotocol/server";
import type {
  AuthInfo,
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/server";
import { sendError, sendMethodNotAllowed } from "./http-replies";
import { isInitialize, isRequest, isResponse, isWithdrawal, parsedMessages } from "./session-messages";

/** The SDK transport's bound on a JSON-RPC batch. */
const MAX_BATCH_SIZE = 100;

/** At most this many withdrawals wait for a GET stream; the oldest go first (their requests have likely ended anyway). */
const MAX_HELD_WITHDRAWALS = 64;

export interface SessionTransportOptions {
  readonly sessionIdGenerator: () => string;
  /** Answer with one JSON body instead of an SSE stream (mid-call messages are then dropped). */
  readonly enableJsonResponse: boolean;
  /** Interval of SSE keep-alive comments; 0 disables. */
  readonly keepAliveMs: number;
  readonly onsessioninitialized: (sessionId: string) => void;
}

/** One open HTTP answer: a POST's (for the requests it carried) or the session's GET stream. */
interface Exchange {
  readonly response: ServerResponse;
  readonly requestIds: readonly RequestId[];
  readonly json: boolean;
  /** Final answers so far, by request id. */
  readonly answers: Map<RequestId, JSONRPCMessage>;
  keepAlive?: NodeJS.Timeout | undefined;
}

const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

export class SessionTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  private started = false;
  private initialized = false;
  private closed = false;
  private supportedVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  private readonly byRequest = new Map<RequestId, Exchange>();
  private standalone: Exchange | undefined;
  /** Withdrawals sent while the client had no stream open to carry them (see `withdraw`). */
  private heldWithdrawals: JSONRPCMessage[] = [];

  constructor(private readonly options: SessionTransportOptions) {}

  start(): Promise<void> {
    if (this.started) throw new Error("Transport already started");
    this.started = true;
    return Promise.resolve();
  }

  /** Called by the SDK server on connect: the versions a `MCP-Protocol-Version` header may name. */
  setSupportedProtocolVersions(versions: string[]): void {
    this.supportedVersions = versions;
  }

  /** Serves one HTTP exchange of the session; `body` is the POST body the host already parsed. */
  async handleRequest(request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void> {
    if (this.closed) return sendError(response, 404, -32001, "Session not found");
    switch (request.method) {
      case "POST":
        return this.post(request, response, body);
      case "GET":
        return this.listen(request, response);
      case "DELETE":
        return this.end(request, response);
      default:
        return sendMethodNotAllowed(response, "GET, POST, DELETE");
    }
  }

  private async post(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const accept = request.headers.accept;
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
      return sendError(
        response,
        406,
        -32000,
        "Not Acceptable: Client must accept both application/json and text/event-stream",
      );
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return sendError(response, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    const messages = parsedMessages(body);
    if (messages === undefined) return sendError(response, 400, -32700, "Parse error: Invalid JSON-RPC message");
    const initializing = messages.some(isInitialize);
    if (!(initializing ? this.initialize(messages, response) : this.admits(request, response))) return;
    if (this.closed) return sendError(response, 404, -32001, "Session not found");
    const requestIds = messages.filter(isRequest).map((message) => message.id);
    if (requestIds.length === 0) {
      for (const message of messages) this.onmessage?.(message, extraOf(request));
      response.writeHead(202).end();
      return;
    }
    const json = this.options.enableJsonResponse;
    const exchange: Exchange = { response, requestIds, json, answers: new Map() };
    for (const id of requestIds) this.byRequest.set(id, exchange);
    // Headers go out with the first event (usually the answer itself): one write per call.
    if (!json) response.writeHead(200, this.sessionHeaders(SSE_HEADERS));
    response.once("close", () => {
      this.stopKeepAlive(exchange);
      this.hungUp(exchange);
    });
    for (const message of messages) this.onmessage?.(message, extraOf(request));
    if (!json && !response.writableEnded) this.startKeepAlive(exchange);
  }

  /** Starts the session for an `initialize` POST; false once refused (initialized already, or not alone). */
  private initialize(messages: readonly JSONRPCMessage[], response: ServerResponse): boolean {
    if (this.initialized && this.sessionId !== undefined) {
      sendError(response, 400, -32600, "Invalid Request: Server already initialized");
      return false;
    }
    if (messages.length > 1) {
      sendError(response, 400, -32600, "Invalid Request: Only one initialization request is allowed");
      return false;
    }
    this.sessionId = this.options.sessionIdGenerator();
    this.initialized = true;
    this.options.onsessioninitialized(this.sessionId);
    return true;
  }

  private listen(request: IncomingMessage, response: ServerResponse): void {
    if (!request.headers.accept?.includes("text/event-stream")) {
      return sendError(response, 406, -32000, "Not Acceptable: Client must accept text/event-stream");
    }
    if (!this.admits(request, response)) return;
    if (this.standalone !== undefined) {
      return sendError(response, 409, -32000, "Conflict: Only one SSE stream is allowed per session");
    }
    const exchange: Exchange = { response, requestIds: [], json: false, answers: new Map() };
    this.standalone = exchange;
    response.writeHead(200, this.sessionHeaders(SSE_HEADERS));
    response.flushHeaders();
    for (const withdrawal of this.heldWithdrawals.splice(0)) writeEvent(response, withdrawal);
    response.once("close", () => {
      this.stopKeepAlive(exchange);
      if (this.standalone === exchange) this.standalone = undefined;
    });
    this.startKeepAlive(exchange);
  }

  private async end(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.admits(request, response)) return;
    response.writeHead(200).end();
    await this.close();
  }

  /** The session checks every request but `initialize` passes, answering the failure when one fails. */
  private admits(request: IncomingMessage, response: ServerResponse): boolean {
    if (!this.initialized) {
      sendError(response, 400, -32000, "Bad Request: Server not initialized");
      return false;
    }
    const sessionId = request.headers["mcp-session-id"];
    if (sessionId === undefined || sessionId === "") {
      sendError(response, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return false;
    }
    if (sessionId !== this.sessionId) {
      sendError(response, 404, -32001, "Session not found");
      return false;
    }
    const version = request.headers["mcp-protocol-version"];
    if (typeof version === "string" && !this.supportedVersions.includes(version)) {
      const supported = this.supportedVersions.join(", ");
      sendError(
        response,
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
      );
      return false;
    }
    return true;
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const final = isResponse(message);
    const requestId = final ? message.id : options?.relatedRequestId;
    if (isWithdrawal(message)) return this.withdraw(message, requestId);
    if (requestId === undefined) {
      if (final) {
        return Promise.reject(
          new Error("Cannot send a response on a standalone SSE stream unless resuming a previous client request"),
        );
      }
      if (this.standalone !== undefined) writeEvent(this.standalone.response, message);
      return Promise.resolve();
    }
    const exchange = this.byRequest.get(requestId);
    // A request outliving the exchange it relates to (the call was answered meanwhile) still has a way to the client.
    if (exchange === undefined && isJSONRPCRequest(message)) return this.sendBeside(message);
    // Rejected, not thrown: the SDK's callers attach `.catch` to what `send` returns (its own `send` is async).
    if (exchange === undefined) {
      return Promise.reject(new Error(`No connection established for request ID: ${String(requestId)}`));
    }
    if (final) this.answer(exchange, requestId, message);
    else if (!exchange.json) writeEvent(exchange.response, message);
    else if (isJSONRPCRequest(message)) return this.sendBeside(message);
    return Promise.resolve();
  }

  /**
   * The server withdraws a request it sent the client (`notifications/cancelled`).
   * The client holds that request wherever it arrived, so the withdrawal must
   * reach it wherever it can: on the SSE answer it relates to while that is
   * open, else on the GET stream (the answer ended first: the call was
   * answered, or the client hung up; or it is a JSON answer, which carries no
   * notification); with no GET stream open, it waits for the next one. Dropped
   * like the SDK drops an undeliverable notification, the client was left
   * holding a question nobody waits for.
   */
  private withdraw(message: JSONRPCMessage, relatedId: RequestId | undefined): Promise<void> {
    const exchange = relatedId === undefined ? undefined : this.byRequest.get(relatedId);
    if (exchange !== undefined && !exchange.json && !exchange.response.writableEnded) {
      writeEvent(exchange.response, message);
    } else if (this.standalone !== undefined) {
      writeEvent(this.standalone.response, message);
    } else if (!this.closed) {
      this.heldWithdrawals.push(message);
      if (this.heldWithdrawals.length > MAX_HELD_WITHDRAWALS) this.heldWithdrawals.shift();
    }
    return Promise.resolve();
  }

  /**
   * A JSON answer carries nothing but the result, so a request the client
   * must answer during the call (elicitation, sampling, roots) goes on the
   * session's GET stream, as does one whose call was answered before it was
   * sent; without one it fails at once rather than wait for an answer that
   * cannot come. (Other notifications are dropped, as the SDK does.)
   */
  private sendBeside(message: JSONRPCMessage): Promise<void> {
    if (this.standalone === undefined) {
      return Promise.reject(
        new Error("No stream to the client: a JSON-mode session needs its GET stream for requests"),
      );
    }
    writeEvent(this.standalone.response, message);
    return Promise.resolve();
  }

  /** Records a final answer; once every request of the exchange has one, the HTTP answer ends. */
  private answer(exchange: Exchange, requestId: RequestId, message: JSONRPCMessage): void {
    exchange.answers.set(requestId, message);
    if (exchange.answers.size < exchange.requestIds.length) {
      if (!exchange.json) writeEvent(exchange.response, message);
      return;
    }
    for (const id of exchange.requestIds) this.byRequest.delete(id);
    this.stopKeepAlive(exchange);
    const { response } = exchange;
    if (response.writableEnded || response.destroyed) return;
    if (!exchange.json) {
      response.end(sseEvent(message));
      return;
    }
    const answers = exchange.requestIds.map((id) => exchange.answers.get(id));
    response.writeHead(200, this.sessionHeaders({ "Content-Type": "application/json" }));
    response.end(JSON.stringify(answers.length === 1 ? answers[0] : answers));
  }

  /**
   * The HTTP answer closed before every request of `exchange` was answered
   * (the client hung up, or a request it cancelled was ended here). With
   * no event store there is no resuming the stream, so those answers could
   * never reach it: each unanswered request is cancelled as if the client had
   * said so (`notifications/cancelled`), and the work it started (a call
   * upstream, a question to the client) ends now, not at its deadline.
   */
  private hungUp(exchange: Exchange): void {
    if (this.closed) return;
    for (const requestId of exchange.requestIds) {
      if (this.byRequest.get(requestId) !== exchange) continue;
      this.byRequest.delete(requestId);
      const reason = "the client closed the connection before the answer";
      this.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } });
    }
  }

  /** Ends the SSE answer carrying `requestId` (its client sees the stream close). */
  closeSSEStream(requestId: RequestId): void {
    const exchange = this.byRequest.get(requestId);
    if (exchange === undefined) return;
    this.stopKeepAlive(exchange);
    if (!exchange.response.writableEnded) exchange.response.end();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    const open = new Set([...this.byRequest.values(), ...(this.standalone ? [this.standalone] : [])]);
    this.byRequest.clear();
    this.standalone = undefined;
    this.heldWithdrawals = [];
    for (const exchange of open) {
      this.stopKeepAlive(exchange);
      if (!exchange.response.writableEnded) exchange.response.end();
    }
    this.onclose?.();
    return Promise.resolve();
  }

  /**
   * `headers` with the session's id. Not `{ ...headers, "mcp-session-id": id }`:
   * V8 builds a spread given more keys on a slow path (about 3.6 µs an answer
   * against 0.3-0.5 µs for `Object.assign`, measured under load), and every
   * POST's answer carries the id.
   */
  private sessionHeaders<T extends Record<string, string>>(headers: T): T | (T & { "mcp-session-id": string }) {
    return this.sessionId === undefined ? headers : Object.assign({}, headers, { "mcp-session-id": this.sessionId });
  }

  private startKeepAlive(exchange: Exchange): void {
    const every = this.options.keepAliveMs;
    if (!(every >= 1) || this.closed) return;
    exchange.keepAlive = setInterval(() => {
      if (!exchange.response.writableEnded) exchange.response.write(": keepalive\n\n");
    }, every);
    exchange.keepAlive.unref();
  }

  private stopKeepAlive(exchange: Exchange): void {
    if (exchange.keepAlive !== undefined) clearInterval(exchange.keepAlive);
    exchange.keepAlive = undefined;
  }
}

function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function writeEvent(response: ServerResponse, message: JSONRPCMessage): void {
  if (!response.writableEnded && !response.destroyed) response.write(sseEvent(message));
}

/** The caller a gateway verified for the request, for its handlers (`ctx.http.authInfo`); none otherwise. */
function extraOf(request: IncomingMessage): MessageExtraInfo | undefined {
  const auth = (request as { auth?: AuthInfo }).auth;
  return auth === undefined ? undefined : { authInfo: auth };
}
