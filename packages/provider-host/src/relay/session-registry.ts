/**
 * The live 2025-era client sessions of one host (HTTP sessions, the stdio
 * connection): the only place a gateway can reach a client outside a call,
 * since 2026-07-28 has no server→client channel but a request's own answer.
 * Each entry keeps what the relays need per session: the capabilities the
 * client declared, when it was last heard from and the log level it asked for.
 */
import type { JsonObject, LogLevel } from "@indus/contract";
import type { ClientCapabilities, Server } from "@modelcontextprotocol/server";
import type { RelayMethod } from "./relay-hooks";
import { AS_SENT } from "../strict-handlers";

/** How long a relayed request may wait for a person (elicitation) or a model (sampling). */
export const RELAY_REQUEST_OPTIONS = { timeout: 600_000, resetTimeoutOnProgress: true } as const;

/**
 * Whether a server can reach its client outside a request right now, where
 * that is not a given: a 2025 HTTP session only while the client holds its
 * GET stream open (the SDK drops what it cannot deliver). Unmarked: always.
 */
const reachability = new WeakMap<Server, () => boolean>();

export function markReachability(server: Server, reachable: () => boolean): void {
  reachability.set(server, reachable);
}

export interface GatewaySession {
  readonly server: Server;
  readonly capabilities: ClientCapabilities;
  /** Last request from the client (ms since epoch); ties go to the newer session. */
  lastActive: number;
  /** Set by `logging/setLevel`; a session that never set one gets every message (as the SDK does). */
  level: LogLevel | undefined;
  /** Whether the client may hear from a mounted server (a gateway's access policy); absent: from all. */
  hears?: (server: string) => boolean;
  /** A request to the client outside any call (`signal`: the asking server withdrew it). */
  readonly request: (method: RelayMethod, params: JsonObject, signal?: AbortSignal) => Promise<JsonObject>;
}

export class SessionRegistry {
  private readonly sessions = new Set<GatewaySession>();
  private readonly closeListeners = new Set<(session: GatewaySession) => void>();

  /** Registers a server once its client initialized; returns the session, or nothing when the client never said who it is. */
  open(server: Server): GatewaySession | undefined {
    const capabilities = server.getClientCapabilities();
    if (capabilities === undefined) return undefined;
    const session: GatewaySession = {
      server,
      capabilities,
      lastActive: Date.now(),
      level: undefined,
      request: async (method, params, signal) =>
        (await server.request(
          { method, params },
          AS_SENT,
          signal === undefined ? RELAY_REQUEST_OPTIONS : { ...RELAY_REQUEST_OPTIONS, signal },
        )) as JsonObject,
    };
    trackActivity(session);
    this.sessions.add(session);
    return session;
  }

  close(session: GatewaySession): void {
    if (!this.sessions.delete(session)) return;
    for (const listener of this.closeListeners) listener(session);
  }

  onClose(listener: (session: GatewaySession) => void): void {
    this.closeListeners.add(listener);
  }

  all(): IterableIterator<GatewaySession> {
    return this.sessions.values();
  }

  /** The most recently active session that can be reached and `accepts`. */
  mostRecent(accepts: (session: GatewaySession) => boolean): GatewaySession | undefined {
    let best: GatewaySession | undefined;
    for (const session of this.sessions) {
      const reachable = reachability.get(session.server)?.() ?? true;
      if (reachable && accepts(session) && (best === undefined || session.lastActive >= best.lastActive))
        best = session;
    }
    return best;
  }
}

/**
 * Every request or notification from the client marks its session active
 * (wraps the connected transport's inbound). Answers to the host's own
 * requests do not: a session answering an ambient request is not thereby
 * the one the user is working in.
 */
function trackActivity(session: GatewaySession): void {
  const transport = session.server.transport;
  const inbound = transport?.onmessage;
  if (transport === undefined || inbound === undefined) return;
  transport.onmessage = (message, extra) => {
    if ("method" in message) session.lastActive = Date.now();
    inbound.call(transport, message, extra);
  };
}
