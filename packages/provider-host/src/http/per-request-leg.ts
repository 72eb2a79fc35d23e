/**
 * The per-request leg of the HTTP host: the SDK's `createMcpHandler`, which
 * builds a fresh server for every request and holds no state between them,
 * so replicas behind a plain load balancer need no affinity. It serves every
 * 2026-07-28 request, and in stateless mode 2025-era requests too (the SDK's
 * stateless legacy fallback). Box changes reach modern clients on their
 * `subscriptions/listen` streams, each hearing its caller's view only.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { paramHeaderDeclarations } from "@indus/contract";
import type { ParamHeaderDeclaration, ToolBox, ToolDescriptor } from "@indus/contract";
import { toNodeHandler } from "@modelcontextprotocol/node";
import type { NodeIncomingMessageLike } from "@modelcontextprotocol/node";
import { PROTOCOL_VERSION_META_KEY, classifyInboundRequest, createMcpHandler } from "@modelcontextprotocol/server";
import type { ServerEventBus } from "@modelcontextprotocol/server";
import { announceChanges } from "../host-instance";
import { subscriptionsOf } from "../provider-host";
import type { ProviderHost } from "../provider-host";
import { canRead } from "../access/caller-box";
import { ListenSubscriptions } from "../catalog/subscriptions";
import { findDescriptor } from "../tools/descriptor-index";
import { HEADER_MISMATCH, paramMismatch } from "./param-headers";

export interface PerRequestLegOptions {
  /** Serve 2025-era requests here too (statelessly) instead of rejecting them. */
  readonly legacyStateless: boolean;
  readonly keepAliveMs: number;
  readonly jsonResponse: boolean;
  readonly maxBodyBytes: number;
  /** A shared change bus for multi-process deployments (the whole box's listen streams); in-process by default. */
  readonly bus?: ServerEventBus;
  /** The box as the request's caller may see it (a gateway's access policy); absent: the whole box. */
  readonly viewOf?: (request: IncomingMessage) => ToolBox;
}

export interface PerRequestLeg {
  serve(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  /** Ends open modern exchanges (listen streams included) and stops announcing changes. */
  close(): Promise<void>;
}

/**
 * One handler per view of the box: its listen streams hear the changes of
 * that view only (the SDK's bus hands every event to every stream of a
 * handler, so callers holding different grants cannot share one).
 */
interface Channel {
  readonly serveNode: ReturnType<typeof toNodeHandler>;
  readonly listens: ListenSubscriptions | undefined;
  close(): Promise<void>;
}

export function perRequestLeg(host: ProviderHost, box: ToolBox, options: PerRequestLegOptions): PerRequestLeg {
  const channels = new Map<ToolBox, Channel>();
  const channelOf = (view: ToolBox) => {
    let channel = channels.get(view);
    if (channel === undefined) {
      // A shared bus carries the whole box's events: only the whole box's streams may read it.
      channel = openChannel(host, view, options, view === box ? options.bus : undefined);
      channels.set(view, channel);
    }
    return channel;
  };
  channelOf(box);
  return {
    serve: (request, response, body) => {
      const view = options.viewOf?.(request) ?? box;
      if (refusedForParamHeaders(view, request, response, body)) return Promise.resolve();
      const { serveNode, listens } = channelOf(view);
      // A listen stream naming resources holds them upstream while it is open.
      if (listens !== undefined && (body as { method?: unknown } | null)?.method === "subscriptions/listen") {
        if (view !== box) withoutUnreadable(body, (uri) => canRead(view, uri));
        listens.opened(response, body);
        response.once("close", () => listens.closed(response));
      }
      return serveNode(request as NodeIncomingMessageLike, response, body);
    },
    async close() {
      await Promise.all([...channels.values()].map((channel) => channel.close()));
    },
  };
}

/** A handler announcing `view`'s changes on its listen streams. */
function openChannel(
  host: ProviderHost,
  view: ToolBox,
  options: PerRequestLegOptions,
  bus: ServerEventBus | undefined,
): Channel {
  const handler = createMcpHandler((context) => host.factory(context), {
    legacy: options.legacyStateless ? "stateless" : "reject",
    responseMode: options.jsonResponse ? "json" : "auto",
    keepAliveMs: options.keepAliveMs,
    maxRequestBodySize: options.maxBodyBytes,
    ...(bus !== undefined && { bus }),
    onerror: () => {},
  });
  const unsubscribe = announceChanges(view, {
    tools: () => handler.notify.toolsChanged(),
    resources: () => handler.notify.resourcesChanged(),
    prompts: () => handler.notify.promptsChanged(),
  });
  const subscriptions = subscriptionsOf(host);
  const listens =
    subscriptions === undefined
      ? undefined
      : new ListenSubscriptions(subscriptions, { notify: (uri) => handler.notify.resourceUpdated(uri) });
  return {
    serveNode: toNodeHandler(handler, { maxRequestBodySize: options.maxBodyBytes }),
    listens,
    async close() {
      unsubscribe();
      await handler.close();
    },
  };
}

/**
 * Drops from a listen request's filter the resources its caller may not read:
 * it hears of them as of resources that do not exist (never).
 */
function withoutUnreadable(body: unknown, mayRead: (uri: string) => boolean): void {
  const notifications = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params
    ?.notifications;
  const uris = notifications?.resourceSubscriptions;
  if (Array.isArray(uris))
    notifications!.resourceSubscriptions = uris.filter((uri) => typeof uri !== "string" || mayRead(uri));
}

type CallBody = {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> };
};

/** Declarations by descriptor, worked out once per listed tool. */
const declarationsOf = new WeakMap<ToolDescriptor, readonly ParamHeaderDeclaration[]>();

/**
 * A 2026-07-28 `tools/call` whose `Mcp-Param-*` headers disagree with its
 * arguments (see `param-headers`) is answered 400 / -32020 here, as the SDK
 * answers for an `McpServer`'s own tools; true when it was.
 */
function refusedForParamHeaders(box: ToolBox, request: IncomingMessage, response: ServerResponse, body: unknown) {
  const call = body as CallBody | null;
  if (call?.method !== "tools/call" || call.params?._meta?.[PROTOCOL_VERSION_META_KEY] === undefined) return false;
  const name = call.params?.name;
  const descriptor = typeof name === "string" ? findDescriptor(box, name) : undefined;
  if (descriptor === undefined) return false;
  let declarations = declarationsOf.get(descriptor);
  if (declarations === undefined) {
    declarations = paramHeaderDeclarations(descriptor.wire?.["inputSchema"] ?? descriptor.parameters);
    declarationsOf.set(descriptor, declarations);
  }
  if (declarations.length === 0) return false;
  const mismatch = paramMismatch(declarations, call.params.arguments, request);
  if (mismatch === undefined) return false;
  response.writeHead(400, { "Content-Type": "application/json" });
  const error = {
    code: HEADER_MISMATCH,
    message: `Bad Request: the request headers and body disagree: ${mismatch.message}`,
    data: { mismatch: { header: mismatch.header, body: mismatch.message } },
  };
  response.end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, error }));
  return true;
}

/**
 * The SDK's own era decision for a POST whose body the host already parsed:
 * `classifyInboundRequest`, the step `isLegacyRequest` and the handler run,
 * fed straight from the Node headers (building a web `Request` just to
 * classify cost more than the classification).
 */
export function isLegacyPost(request: IncomingMessage, body: unknown): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    body,
    ...header("protocolVersionHeader", request.headers["mcp-protocol-version"]),
    ...header("mcpMethodHeader", request.headers["mcp-method"]),
    ...header("mcpNameHeader", request.headers["mcp-name"]),
  });
  return outcome.kind === "legacy";
}

/** A header as the web `Headers.get` reads it (repeats joined), or nothing when absent. */
function header<K extends string>(key: K, value: string | string[] | undefined): Partial<Record<K, string>> {
  if (value === undefined) return {};
  return { [key]: Array.isArray(value) ? value.join(", ") : value } as Partial<Record<K, string>>;
}
