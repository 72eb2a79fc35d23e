/**
 * What an embedder can tune per endpoint, and the defaults. A server's own
 * config (`startupTimeoutMs`, `listTimeoutMs`, `toolTimeoutMs`) wins over these.
 */
import type { ClientHostHooks, EraVerdictStore, ServerConfig } from "@indus/contract";
import type { ClientIdentity } from "./client-identity";

/** Deadlines, in milliseconds. */
export interface EndpointTimeouts {
  /** Spawn or connect plus the `initialize` handshake. */
  readonly startupMs: number;
  /** Each `tools/list` (and catalog) page. */
  readonly listMs: number;
  /** One `tools/call`, reset by each progress notification. */
  readonly callMs: number;
  /** Bound on one `tools/call` however much progress arrives. */
  readonly callTotalMs: number;
}

export const DEFAULT_TIMEOUTS: EndpointTimeouts = {
  startupMs: 30_000,
  listMs: 30_000,
  callMs: 60_000,
  callTotalMs: 600_000,
};

/** Largest single stdio message accepted; the SDK's own stdio transport stops at 10 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CLOSE_GRACE_MS = 2_000;

export interface EndpointOptions {
  /** When given, each stdio server's stderr is also appended to `<logDir>/<server>.log`. */
  readonly logDir?: string;
  /** What the client says it is; defaults to `indus-protocol-bridge` and this package's version. */
  readonly clientInfo?: ClientIdentity;
  readonly timeouts?: Partial<EndpointTimeouts>;
  /** Time a server gets after stdin is closed before SIGTERM, and again before SIGKILL. */
  readonly closeGraceMs?: number;
  /**
   * Largest single message accepted: a line on a stdio server's stdout, an
   * HTTP response body, or one SSE event. Over it, the request fails (stdio and
   * SSE: the endpoint faults) with a `protocol` fault naming the size.
   */
  readonly maxMessageBytes?: number;
  /** Lines of stderr kept in memory per server. */
  readonly stderrLines?: number;
  /** Idle limit on HTTP response bodies and headers; 0 (the default) means none. */
  readonly httpBodyTimeoutMs?: number;
  /**
   * Where `protocol: "auto"` servers' era verdicts are remembered (see
   * `fileEraVerdictStore`); a store for this process only when absent.
   */
  readonly eraVerdicts?: EraVerdictStore;
  /**
   * Answers to what servers ask of the client (elicitation, sampling, roots),
   * in either era. Absent: the client offers none of them.
   */
  readonly host?: ClientHostHooks;
}

/** The deadlines one server gets: its config over the options over the defaults. */
export function resolveTimeouts(config: ServerConfig, options: EndpointOptions): EndpointTimeouts {
  const base = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  return {
    startupMs: config.startupTimeoutMs ?? base.startupMs,
    listMs: config.listTimeoutMs ?? base.listMs,
    callMs: config.toolTimeoutMs ?? base.callMs,
    callTotalMs: Math.max(base.callTotalMs, config.toolTimeoutMs ?? 0),
  };
}
