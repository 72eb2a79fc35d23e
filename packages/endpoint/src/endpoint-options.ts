/**
 * What an embedder can tune per endpoint, and the defaults. A server's own
 * config (`startupTimeoutMs`, `listTimeoutMs`, `toolTimeoutMs`) wins over these.
 */
import { MAX_JSON_DEPTH, type EndpointOptions, type EndpointTimeouts, type ServerConfig } from "@indus/contract";

export type { EndpointOAuthOptions, EndpointOptions, EndpointTimeouts } from "@indus/contract";

export const DEFAULT_TIMEOUTS: EndpointTimeouts = {
  startupMs: 30_000,
  listMs: 30_000,
  callMs: 60_000,
  callTotalMs: 600_000,
  eraProbeMs: 5_000,
};

/** Largest single stdio message accepted; the SDK's own stdio transport stops at 10 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CLOSE_GRACE_MS = 2_000;
/** Deepest nesting accepted in what a server sends (levels below a result or params). */
export const DEFAULT_MAX_MESSAGE_DEPTH = MAX_JSON_DEPTH;

/** The deadlines one server gets: its config over the options over the defaults. */
export function resolveTimeouts(config: ServerConfig, options: EndpointOptions): EndpointTimeouts {
  const base = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  return {
    startupMs: config.startupTimeoutMs ?? base.startupMs,
    listMs: config.listTimeoutMs ?? base.listMs,
    callMs: config.toolTimeoutMs ?? base.callMs,
    callTotalMs: Math.max(base.callTotalMs, config.toolTimeoutMs ?? 0),
    eraProbeMs: base.eraProbeMs,
  };
}
