/**
 * A 2026-era request carries in `_meta` what the 2025 era set once per
 * connection: its client's capabilities and the log level.
 */
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import type { ClientHostHooks, LogLevel, TraceContext } from "@indus/contract";
import { callCapabilities, clientCapabilities, withTasks } from "./relay/client-host";

/** What a 2026-era request's `_meta` is made from. */
export interface RequestMetaSources {
  readonly relayTo: ClientHostHooks | undefined;
  readonly level: LogLevel | undefined;
  readonly host: ClientHostHooks | undefined;
  readonly tasks?: boolean;
}

/**
 * `request` with `relayTo`'s capabilities (within what the endpoint's `host`
 * declared) and the log `level` in `_meta`; the request itself when there
 * is neither. `tasks`: the request also declares the Tasks extension (with
 * the host's capabilities when there is no relayTo), so the server may answer
 * it with a task, and accepts the task requests.
 */
export function withModernMeta<R extends { params: Record<string, unknown> }>(
  request: R,
  { relayTo, level, host, tasks = false }: RequestMetaSources,
): R {
  if (!relayTo && !level && !tasks) return request;
  const capabilities = relayTo ? callCapabilities(relayTo, host) : tasks ? clientCapabilities(host) : undefined;
  const meta: Record<string, unknown> = {};
  if (capabilities) meta[CLIENT_CAPABILITIES_META_KEY] = tasks ? withTasks(capabilities) : capabilities;
  if (level) meta[LOG_LEVEL_META_KEY] = level;
  const sent = request.params["_meta"] as Record<string, unknown> | undefined;
  // Object.assign, not `{ ...request, params }`: every 2026 call (it declares tasks) takes this path, and V8 builds
  // a spread given more keys on a slow path (3.5 us a call against 0.9 us in a micro-bench; see withTrace).
  const params = Object.assign({}, request.params, {
    _meta: sent === undefined ? meta : Object.assign({}, sent, meta),
  });
  return Object.assign({}, request, { params });
}

/**
 * `params` with the caller's W3C trace context in `_meta` (MCP's `traceparent` / `tracestate` keys), when it has one.
 * `Object.assign`, not `{ ...params, _meta }`: V8 builds a spread given more keys on a slow path (~5x, per call).
 */
export function withTrace<P extends Record<string, unknown>>(params: P, trace: TraceContext | undefined): P {
  if (trace === undefined) return params;
  const meta = trace.tracestate === undefined ? { traceparent: trace.traceparent } : { ...trace };
  return Object.assign({}, params, { _meta: meta });
}
