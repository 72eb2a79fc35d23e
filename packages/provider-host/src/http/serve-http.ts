/**
 * Streamable HTTP for many clients at once, both protocol eras on one
 * endpoint. The host in front owns everything the SDK leaves to "external
 * middleware": Host/Origin checks, the bearer token, the body bound, health
 * and a draining shutdown. Behind it, each POST goes to one of two legs:
 *
 * - 2026-07-28 requests (and, in stateless mode, 2025 ones too) to the SDK's
 *   per-request handler, which keeps no state between requests;
 * - 2025-era requests, unless stateless, to sessions as before.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ToolBox } from "@indus/contract";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { protocolFault } from "@indus/contract";
import { version } from "../../package.json";
import { wantsGateway } from "../gateway/gateway-options";
import { gatewayLayer } from "../gateway/gateway-layer";
import type { GatewayLayer } from "../gateway/gateway-layer";
import { DEFAULT_HOST_INFO, abandonWaitingCalls, createProviderHost } from "../provider-host";
import { DEFAULT_TOKEN_ENV } from "./http-options";
import type { HttpHostOptions, HttpProviderHost } from "./http-options";
import { sendError, sendErrorReply, sendHealth, sendMethodNotAllowed, sendReadiness } from "./http-replies";
import { legacySessions } from "./legacy-sessions";
import { isLegacyPost, perRequestLeg } from "./per-request-leg";
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from "./request-body";
import { bodyTooDeep } from "../message-depth";
import { checkRequest, isLoopbackHost, loopbackHostNames, loopbackOrigins } from "./request-guard";
import type { GuardPolicy } from "./request-guard";

export { DEFAULT_TOKEN_ENV } from "./http-options";
export type { HttpHostOptions, HttpProviderHost } from "./http-options";

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
/**
 * How long an idle client connection stays open. A server that closes one as
 * its client reuses it fails that request with a reset; Node's default (5 s)
 * is shorter than many clients' pools, and proxies close theirs at 60 s.
 */
const IDLE_CONNECTION_MS = 65_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** What answering a request needs, and what closing reads: the two legs, the guard, the counters. */
interface Front {
  readonly box: ToolBox;
  readonly options: HttpHostOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly endpointPath: string;
  readonly maxBodyBytes: number;
  readonly host: ReturnType<typeof createProviderHost>;
  readonly perRequest: ReturnType<typeof perRequestLeg>;
  readonly sessions: ReturnType<typeof legacySessions> | undefined;
  /** Set once listening (the default resource URL names the bound port), when a gateway option is on. */
  gateway?: GatewayLayer;
  /** Set once listening: the default Host allow-list names the bound port. */
  policy?: GuardPolicy;
  inFlight: number;
  draining: boolean;
}

export async function serveHttp(box: ToolBox, options: HttpHostOptions = {}): Promise<HttpProviderHost> {
  const bindHost = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(bindHost);
  // An OAuth resource server takes access tokens, not the static one.
  const token = options.oauth === undefined ? bearerToken(options) : undefined;
  if (!loopback && token === undefined && options.oauth === undefined) {
    throw protocolFault(
      "transport",
      `refusing to serve MCP on non-loopback address ${bindHost} without a bearer token: set the ${options.tokenEnv ?? DEFAULT_TOKEN_ENV} environment variable`,
    );
  }
  const front = frontOf(box, options);
  const httpServer = createServer((request, response) => {
    handle(front, request, response).catch(() => {
      if (!response.headersSent) sendError(response, 500, -32603, "Internal error");
      else response.destroy();
    });
  });
  httpServer.keepAliveTimeout = IDLE_CONNECTION_MS;
  httpServer.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  httpServer.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  await listen(httpServer, bindHost, options.port ?? 0);
  const port = (httpServer.address() as AddressInfo).port;
  front.policy = buildPolicy(options, loopback, port, token);
  const url = new URL(`http://${urlHost(bindHost)}:${port}${front.endpointPath}`);
  if (wantsGateway(options, front.env)) front.gateway = await openGateway(front, httpServer, url);
  return {
    url,
    port,
    stateless: front.sessions === undefined,
    get sessionCount() {
      return front.sessions?.count ?? 0;
    },
    get inFlight() {
      return front.inFlight;
    },
    httpServer,
    clientHooks: front.host.clientHooks,
    close: closer(front, httpServer),
  };
}

/** The provider host and its two legs: per request (2026-07-28, and stateless 2025) and 2025-era sessions. */
function frontOf(box: ToolBox, options: HttpHostOptions): Front {
  const env = options.env ?? process.env;
  const stateless = options.stateless === true;
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const jsonResponse = options.jsonResponse === true;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const gatewayOn = wantsGateway(options, env);
  const host = createProviderHost(box, options.info, {
    ...options,
    ...(gatewayOn && { callerBox: (auth) => front.gateway?.boxFor(auth) ?? box }),
  });
  const perRequest = perRequestLeg(host, box, {
    legacyStateless: stateless,
    keepAliveMs,
    jsonResponse,
    maxBodyBytes,
    ...(options.eventBus !== undefined && { bus: options.eventBus }),
    ...(gatewayOn && {
      viewOf: (request: IncomingMessage) => front.gateway?.boxFor((request as { auth?: AuthInfo }).auth) ?? box,
    }),
  });
  const sessions = stateless
    ? undefined
    : legacySessions(host, {
        maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
        idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        keepAliveMs,
        jsonResponse,
        sessionIdPrefix: options.sessionIdPrefix ?? "",
        ownerOf: (request) => front.gateway?.ownerOf(request),
      });
  const endpointPath = options.path ?? "/mcp";
  const front: Front = {
    box,
    options,
    env,
    endpointPath,
    maxBodyBytes,
    host,
    perRequest,
    sessions,
    inFlight: 0,
    draining: false,
  };
  return front;
}

/** The gateway layer for `url`; the server is closed when it cannot be built. */
function openGateway(front: Front, httpServer: HttpServer, url: URL): Promise<GatewayLayer> {
  const { box, options, env, sessions } = front;
  return gatewayLayer(options, {
    box,
    served: url,
    env,
    service: { name: options.info?.name ?? DEFAULT_HOST_INFO.name, version: options.info?.version ?? version },
    sessions: () => sessions?.count ?? 0,
  }).catch(async (error: unknown) => {
    await new Promise((resolve) => httpServer.close(resolve));
    throw error;
  });
}

/** Draining shutdown: no new requests, exchanges in flight get the grace, then every leg and connection closes. */
function closer(front: Front, httpServer: HttpServer) {
  let closing: Promise<void> | undefined;
  return async (closeOptions: { readonly graceMs?: number } = {}): Promise<void> => {
    closing ??= (async () => {
      front.draining = true;
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const grace = closeOptions.graceMs ?? front.options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
      const deadline = Date.now() + grace;
      while (front.inFlight > 0 && Date.now() < deadline) await delay(20);
      abandonWaitingCalls(front.host, "the provider host is shutting down");
      await Promise.all([front.perRequest.close().catch(ignore), front.sessions?.closeAll()]);
      httpServer.closeAllConnections();
      await stopped;
      await front.gateway?.close();
    })();
    return closing;
  };
}

/** The host's own routes (health, readiness, the gateway's); true when one answered. */
function ownRoute(front: Front, pathname: string, request: IncomingMessage, response: ServerResponse): boolean {
  const read = request.method === "GET" || request.method === "HEAD";
  if (pathname === "/healthz" && read) {
    sendHealth(response, front.draining);
    return true;
  }
  if (pathname === "/readyz" && read) {
    sendReadiness(response, front.draining, front.options.ready?.() ?? true);
    return true;
  }
  return front.gateway?.route(pathname, request, response) === true;
}

async function handle(front: Front, request: IncomingMessage, response: ServerResponse): Promise<void> {
  request.on("error", ignore);
  response.on("error", ignore);
  let pathname: string;
  try {
    pathname = new URL(request.url ?? "/", "http://host.invalid").pathname;
  } catch {
    return sendError(response, 400, -32600, "Bad Request: malformed request target");
  }
  if (ownRoute(front, pathname, request, response)) return;
  if (pathname !== front.endpointPath) return sendError(response, 404, -32000, "Not Found");
  if (!(await admitted(front, request, response))) return;
  const { sessions } = front;
  switch (request.method) {
    case "POST":
      return handlePost(front, request, response);
    case "GET":
    case "DELETE":
      if (sessions === undefined) return sendMethodNotAllowed(response, "POST");
      return sessions.sessionRequest(request, response);
    default:
      return sendMethodNotAllowed(response, sessions === undefined ? "POST" : "GET, POST, DELETE");
  }
}

/** Host, Origin and token checks, the gateway's admission, and no new work while draining; false once refused. */
async function admitted(front: Front, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const verdict = checkRequest(request, front.policy!);
  if (verdict.kind === "forbidden") {
    sendError(response, 403, -32000, verdict.reason);
    return false;
  }
  if (verdict.kind === "unauthorized") {
    const headers = { "WWW-Authenticate": 'Bearer realm="indus-provider-host"' };
    sendErrorReply(response, { status: 401, code: -32000, message: verdict.reason, headers });
    return false;
  }
  if (front.gateway !== undefined && !(await front.gateway.admit(request, response))) return false;
  if (front.draining) {
    const message = "Service Unavailable: shutting down";
    sendErrorReply(response, { status: 503, code: -32000, message, headers: { Connection: "close" } });
    return false;
  }
  return true;
}

async function handlePost(front: Front, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await postBody(front, request, response);
  if (body === undefined) return;
  if (front.gateway !== undefined && !front.gateway.observe(request, response, body)) return;
  // A listen stream stays open for the client's lifetime: not an exchange to drain.
  if (!isListen(body)) {
    front.inFlight++;
    response.once("close", () => front.inFlight--);
  }
  // A session id is 2025-era by definition (the 2026 revision has none).
  const inSession = request.headers["mcp-session-id"] !== undefined;
  if (front.sessions !== undefined && (inSession || isLegacyPost(request, body))) {
    return front.sessions.post(request, response, body);
  }
  return front.perRequest.serve(request, response, body);
}

/** A POST's JSON body, within the size and depth bounds; undefined once answered with why not. */
async function postBody(front: Front, request: IncomingMessage, response: ServerResponse): Promise<unknown> {
  if (!isJsonContentType(request.headers["content-type"])) {
    request.resume();
    return sendError(response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  }
  const { maxBodyBytes } = front;
  const body = await readJsonBody(request, maxBodyBytes);
  switch (body.kind) {
    case "aborted":
      return undefined;
    case "too-large":
      return sendErrorReply(response, {
        status: 413,
        code: -32000,
        message: `Payload Too Large: request body exceeds ${maxBodyBytes} bytes`,
        headers: { Connection: "close" },
      });
    case "malformed":
      return sendError(response, 400, -32700, "Parse error: Invalid JSON");
    case "json":
      break;
  }
  // Before anything walks it (the gateway's records, the SDK, argument checks): see message-depth.ts.
  const deep = bodyTooDeep(body.value);
  if (deep !== undefined) return sendError(response, 400, -32600, `Invalid Request: ${deep.reason}`);
  return body.value;
}

function bearerToken(options: HttpHostOptions): string | undefined {
  const raw = (options.env ?? process.env)[options.tokenEnv ?? DEFAULT_TOKEN_ENV];
  return raw !== undefined && raw.trim() !== "" ? raw.trim() : undefined;
}

function listen(httpServer: HttpServer, bindHost: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      httpServer.off("listening", onListening);
      reject(
        protocolFault("transport", `provider host could not listen on ${bindHost}:${port}: ${error.message}`, error),
      );
    };
    const onListening = () => {
      httpServer.off("error", onError);
      resolve();
    };
    httpServer.once("error", onError);
    httpServer.once("listening", onListening);
    httpServer.listen(port, bindHost);
  });
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

function isListen(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === "subscriptions/listen";
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return (header.split(";")[0] ?? "").trim().toLowerCase() === "application/json";
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function ignore(): void {}
