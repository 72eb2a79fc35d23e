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
import { canRead } from "../access/caller-box";
import { wantsGateway } from "../gateway/gateway-options";
import { gatewayLayer } from "../gateway/gateway-layer";
import type { GatewayLayer } from "../gateway/gateway-layer";
import { DEFAULT_HOST_INFO, abandonWaitingCalls, createProviderHost } from "../provider-host";
import { DEFAULT_TOKEN_ENV } from "./http-options";
import type { HttpHostOptions, HttpProviderHost } from "./http-options";
import { sendError, sendHealth, sendMethodNotAllowed, sendReadiness } from "./http-replies";
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
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export async function serveHttp(box: ToolBox, options: HttpHostOptions = {}): Promise<HttpProviderHost> {
  const bindHost = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(bindHost);
  const env = options.env ?? process.env;
  // An OAuth resource server takes access tokens, not the static one.
  const token = options.oauth === undefined ? bearerToken(options) : undefined;
  if (!loopback && token === undefined && options.oauth === undefined) {
    throw protocolFault(
      "transport",
      `refusing to serve MCP on non-loopback address ${bindHost} without a bearer token: set the ${options.tokenEnv ?? DEFAULT_TOKEN_ENV} environment variable`,
    );
  }
  const endpointPath = options.path ?? "/mcp";
  const stateless = options.stateless === true;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const jsonResponse = options.jsonResponse === true;
  /** Set once listening (the default resource URL names the bound port), when a gateway option is on. */
  const layer: { gateway?: GatewayLayer } = {};
  const host = createProviderHost(box, options.info, {
    ...options,
    ...(wantsGateway(options, env) && { callerBox: (auth) => layer.gateway?.boxFor(auth) ?? box }),
  });
  const perRequest = perRequestLeg(host, box, {
    legacyStateless: stateless,
    keepAliveMs,
    jsonResponse,
    maxBodyBytes,
    ...(options.eventBus !== undefined && { bus: options.eventBus }),
    ...(wantsGateway(options, env) && {
      mayRead: (request: IncomingMessage, uri: string) =>
        canRead(layer.gateway?.boxFor((request as { auth?: AuthInfo }).auth) ?? box, uri),
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
        ownerOf: (request) => layer.gateway?.ownerOf(request),
      });

  let inFlight = 0;
  let draining = false;
  /** Set once listening: the default Host allow-list names the bound port. */
  const guard: { policy?: GuardPolicy } = {};

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
    if (pathname === "/readyz" && (request.method === "GET" || request.method === "HEAD")) {
      return sendReadiness(response, draining, options.ready?.() ?? true);
    }
    if (layer.gateway?.route(pathname, request, response) === true) return;
    if (pathname !== endpointPath) return sendError(response, 404, -32000, "Not Found");
    const verdict = checkRequest(request, guard.policy!);
    if (verdict.kind === "forbidden") return sendError(response, 403, -32000, verdict.reason);
    if (verdict.kind === "unauthorized") {
      return sendError(response, 401, -32000, verdict.reason, {
        "WWW-Authenticate": 'Bearer realm="indus-provider-host"',
      });
    }
    if (layer.gateway !== undefined && !(await layer.gateway.admit(request, response))) return;
    if (draining) {
      return sendError(response, 503, -32000, "Service Unavailable: shutting down", { Connection: "close" });
    }
    switch (request.method) {
      case "POST":
        return handlePost(request, response);
      case "GET":
      case "DELETE":
        if (sessions === undefined) return sendMethodNotAllowed(response, "POST");
        return sessions.sessionRequest(request, response);
      default:
        return sendMethodNotAllowed(response, sessions === undefined ? "POST" : "GET, POST, DELETE");
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
    // Before anything walks it (the gateway's records, the SDK, argument checks): see message-depth.ts.
    const deep = bodyTooDeep(body.value);
    if (deep !== undefined) return sendError(response, 400, -32600, `Invalid Request: ${deep.reason}`);
    if (layer.gateway !== undefined && !layer.gateway.observe(request, response, body.value)) return;
    // A listen stream stays open for the client's lifetime: not an exchange to drain.
    if (!isListen(body.value)) {
      inFlight++;
      response.once("close", () => inFlight--);
    }
    // A session id is 2025-era by definition (the 2026 revision has none).
    const inSession = request.headers["mcp-session-id"] !== undefined;
    if (sessions !== undefined && (inSession || isLegacyPost(request, body.value))) {
      return sessions.post(request, response, body.value);
    }
    return perRequest.serve(request, response, body.value);
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
  await listen(httpServer, bindHost, options.port ?? 0);
  const port = (httpServer.address() as AddressInfo).port;
  guard.policy = buildPolicy(options, loopback, port, token);
  const url = new URL(`http://${urlHost(bindHost)}:${port}${endpointPath}`);
  if (wantsGateway(options, env)) {
    layer.gateway = await gatewayLayer(options, {
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

  let closing: Promise<void> | undefined;
  async function close(closeOptions: { readonly graceMs?: number } = {}): Promise<void> {
    closing ??= (async () => {
      draining = true;
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const deadline = Date.now() + (closeOptions.graceMs ?? options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
      while (inFlight > 0 && Date.now() < deadline) await delay(20);
      abandonWaitingCalls(host, "the provider host is shutting down");
      await Promise.all([perRequest.close().catch(ignore), sessions?.closeAll()]);
      httpServer.closeAllConnections();
      await stopped;
      await layer.gateway?.close();
    })();
    return closing;
  }

  return {
    url,
    port,
    stateless,
    get sessionCount() {
      return sessions?.count ?? 0;
    },
    get inFlight() {
      return inFlight;
    },
    httpServer,
    clientHooks: host.clientHooks,
    close,
  };
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
