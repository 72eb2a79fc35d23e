/** What `serveHttp` takes and what it returns. */
import type { Server as HttpServer } from "node:http";
import type { ClientHostHooks } from "@indus/contract";
import type { ServerEventBus } from "@modelcontextprotocol/server";
import type { GatewayOptions } from "../gateway/gateway-options";
import type { ProviderHostInfo, ProviderHostOptions } from "../provider-host";

/** The environment variable holding the bearer token, unless told otherwise. */
export const DEFAULT_TOKEN_ENV = "INDUS_PROVIDER_HOST_TOKEN";

export interface HttpHostOptions extends ProviderHostOptions, GatewayOptions {
  readonly info?: ProviderHostInfo;
  /** Address to bind. Default `127.0.0.1`; anything non-loopback requires a token. */
  readonly host?: string;
  /** Port to bind; `0` (the default) picks a free one (see `port` on the result). */
  readonly port?: number;
  /** The MCP endpoint path. Default `/mcp`. */
  readonly path?: string;
  /**
   * No per-process session state: 2025-era clients are served statelessly
   * too (a fresh server per request), for replicas behind a load balancer.
   * 2026-07-28 clients are always served statelessly.
   */
  readonly stateless?: boolean;
  /**
   * Prefix of every 2025-era session id this process mints (e.g. `a.`), so a
   * load balancer can pin a session to the replica that owns it. Default none.
   */
  readonly sessionIdPrefix?: string;
  /** The change bus `subscriptions/listen` streams read; supply one shared by replicas. */
  readonly eventBus?: ServerEventBus;
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
  /**
   * Concurrent 2025-era sessions. At the cap a new session ends the one idle
   * longest; only when every session is busy is it refused (503). Default 1000.
   */
  readonly maxSessions?: number;
  /** Answer POSTs with plain JSON instead of an SSE stream. Default false. */
  readonly jsonResponse?: boolean;
  /** How long `close()` waits for in-flight requests by default. Default 10 s. */
  readonly shutdownGraceMs?: number;
  /** Whether the box is ready to serve, for `/readyz` (e.g. its mounts settled). Default: always. */
  readonly ready?: () => boolean;
}

export interface HttpProviderHost {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  readonly port: number;
  readonly stateless: boolean;
  /** Live 2025-era sessions (always 0 in stateless mode). */
  readonly sessionCount: number;
  /** Requests currently being answered (open POSTs; SSE GET and listen streams excluded). */
  readonly inFlight: number;
  readonly httpServer: HttpServer;
  /**
   * The host's clients as hooks, for the mounted servers' requests made
   * outside any call: the most recently active 2025-era session whose client
   * declared the capability answers (see `createClientRelay`).
   */
  readonly clientHooks: ClientHostHooks;
  /**
   * Graceful shutdown: stop accepting, answer new requests 503, let in-flight
   * requests finish for up to `graceMs`, then end every session and connection.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}
