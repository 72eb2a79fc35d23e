/**
 * The endpoint's lifecycle: an explicit phase machine (`idle → connecting →
 * ready → closing → closed`, any failure → `faulted`), single-flight open,
 * a lost server reconnected under its policy (`reconnect.ts`), a forgotten
 * Streamable HTTP session renewed (`session-renewal.ts`), and clean shutdown.
 * It alone writes the phase and the live session (`LiveState`); requests
 * reach the session through the session port (`session-access.ts`), and what
 * each new session carries besides comes from the endpoint's `SessionHooks`.
 */
import {
  protocolFault,
  type EndpointPhase,
  type LogLevel,
  type ProtocolFault,
  type ServerConfig,
} from "@indus/contract";
import type { Transport } from "@modelcontextprotocol/client";
import { DEFAULT_CLIENT_INFO } from "../client-identity";
import type { EndpointOptions, EndpointTimeouts } from "../endpoint-options";
import { connectionLostFault } from "../faults/fault-sites";
import type { ResponseTooLargeError } from "../http/response-cap";
import type { RelayRouter } from "../relay/relay-routing";
import { endSession, type Session } from "../session";
import type { StderrTail } from "../stdio/stderr-tail";
import { scheduleReconnect, type ReconnectPolicy } from "./reconnect";
import { RemoteLossProbe } from "./remote-loss";
import { SessionAccess, type LiveState } from "./session-access";
import { SessionOpener } from "./session-opener";
import { SessionRenewal } from "./session-renewal";

/** What the endpoint adds to each session, and what it hears of the lifecycle. */
export interface SessionHooks {
  /** A new session's own handlers (host hooks, relayed notifications, list changes); `live` while it is the endpoint's. */
  wire(session: Session, live: () => boolean): void;
  /** `session` is the live one now; `replacing` an earlier one. */
  adopted(session: Session, replacing: boolean): void;
  /** A reconnect or a renewal replaced a lost session. */
  recovered(): void;
  /** What the inbound guard dropped or repaired in a message of `method`, and why. */
  dropped(method: string, issues: readonly string[]): void;
  /** The resources subscribed to, for a 2026-era listen stream. */
  resourceSubscriptions(): readonly string[];
  /** The log level set for every call. */
  logLevel(): LogLevel | undefined;
}

/** Everything the lifecycle needs to know about its server. */
export interface LifecycleSetup {
  readonly config: ServerConfig;
  readonly injected: Transport | undefined;
  readonly options: EndpointOptions;
  readonly timeouts: EndpointTimeouts;
  readonly stderr: StderrTail;
  readonly router: RelayRouter;
}

/**
 * A remote server lost mid-session reconnects by itself unless its config
 * says otherwise, as Claude Code's do: 5 attempts, 1 s doubling. A child
 * process is not restarted unasked (it may have exited for a reason).
 */
export const REMOTE_RECONNECT: ReconnectPolicy = { maxAttempts: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 };

function reconnectPolicy(config: ServerConfig, injected: Transport | undefined): ReconnectPolicy | undefined {
  if (config.reconnect) return config.reconnect;
  return config.transport === "stdio" || injected ? undefined : REMOTE_RECONNECT;
}

export class EndpointLifecycle {
  private readonly phaseListeners = new Set<(phase: EndpointPhase) => void>();
  /** Every phase change is heard (a server that dies while idle is announced at once). */
  readonly state: LiveState = phaseHeard(
    { phase: "idle", fault: undefined, session: undefined, capabilities: undefined },
    this.phaseListeners,
  );
  readonly access: SessionAccess;
  readonly opener: SessionOpener;
  private readonly renewal: SessionRenewal;
  private readonly config: ServerConfig;
  private readonly stderr: StderrTail;
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private cancelReconnect: (() => void) | undefined;
  private readonly reconnect: ReconnectPolicy | undefined;
  /** A remote server's errors are checked on: is it gone? */
  private readonly lossProbe = new RemoteLossProbe((session, error) => this.onRemoteLost(session, error));
  /** The server's `serverInfo` and `instructions` from its handshake. */
  serverInfo: { readonly name: string; readonly version: string; readonly [key: string]: unknown } | undefined;
  instructions: string | undefined;

  constructor(
    setup: LifecycleSetup,
    private readonly hooks: SessionHooks,
  ) {
    const { config, injected, options, timeouts, stderr, router } = setup;
    this.config = config;
    this.stderr = stderr;
    this.reconnect = reconnectPolicy(config, injected);
    this.opener = new SessionOpener(
      { config, injected, options, timeouts, clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO, stderr, router },
      {
        wire: (session) => this.wire(session),
        dropped: (method, issues) => hooks.dropped(method, issues),
        resourceSubscriptions: () => hooks.resourceSubscriptions(),
        tooLarge: (error) => this.onResponseTooLarge(error),
      },
    );
    const renew = (stale: Session) => this.renew(stale);
    const logLevel = () => hooks.logLevel();
    this.access = new SessionAccess(this.state, { ...setup, opener: this.opener, renew, logLevel });
    this.renewal = new SessionRenewal(this.opener, timeouts.startupMs, {
      current: () => this.state.session,
      adopt: (session) => {
        this.adopt(session);
        hooks.recovered();
      },
      fail: (error) => {
        const fault = this.access.toFault("connect", error);
        this.enterFault(fault);
        return fault;
      },
    });
  }

  open(): Promise<void> {
    switch (this.state.phase) {
      case "ready":
        return Promise.resolve();
      case "connecting":
        return this.opening ?? Promise.reject(this.access.notConnected("open"));
      case "faulted":
        return Promise.reject(this.state.fault ?? this.access.notConnected("open"));
      case "closing":
      case "closed":
        return Promise.reject(protocolFault("not-connected", `server "${this.config.id}" is ${this.state.phase}`));
      case "idle":
        break;
    }
    this.state.phase = "connecting";
    const attempt = this.opener.open().then(
      (session) => {
        this.adopt(session);
      },
      (error: unknown) => {
        const fault = this.closing
          ? protocolFault("not-connected", `server "${this.config.id}" was closed while connecting`, error)
          : this.access.toFault("connect", error);
        if (!this.closing) this.enterFault(fault);
        throw fault;
      },
    );
    this.opening = attempt.finally(() => {
      this.opening = undefined;
    });
    // Concurrent callers share this promise; nobody awaiting it must not crash the host.
    this.opening.catch(() => undefined);
    return this.opening;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const faulted = this.state.phase === "faulted";
    if (!faulted) this.state.phase = "closing";
    this.cancelReconnect?.();
    this.opener.abort();
    try {
      await this.opening;
    } catch {
      // The open fails because we are closing; that is expected.
    }
    try {
      await this.renewal.pending;
    } catch {
      // Same.
    }
    const session = this.state.session;
    if (session) await endSession(session, true);
    await this.opener.drain();
    this.stderr.close();
    if (this.state.phase !== "faulted") this.state.phase = "closed";
  }

  /** Called on each phase change, after `fault` is set for the new phase; returns an unsubscribe. */
  onPhaseChanged(listener: (phase: EndpointPhase) => void): () => void {
    this.phaseListeners.add(listener);
    return () => this.phaseListeners.delete(listener);
  }

  private enterFault(fault: ProtocolFault): void {
    if (this.state.phase === "closed" || this.state.phase === "closing") return;
    this.state.fault = fault;
    this.state.phase = "faulted";
  }

  /** A new session's handlers: the endpoint's own, and its closing. */
  private wire(session: Session): void {
    const { client } = session;
    this.hooks.wire(session, () => this.state.session === session && !session.retired);
    client.onerror = () => this.lossProbe.suspect(session);
    client.onclose = () => this.onSessionClosed(session);
  }

  /**
   * An SSE event over the cap: the SDK reports the broken stream only as text
   * and may wait for a reply that never comes, so the session is faulted here
   * (as an over-size stdio message faults it). A whole JSON body over the cap
   * fails only its own request.
   */
  private onResponseTooLarge(error: ResponseTooLargeError): void {
    const session = this.state.session;
    if (!error.inStream || !session || session.retired || this.closing) return;
    session.retired = true;
    this.enterFault(
      protocolFault("protocol", `server "${this.config.id}": ${error.message}; connection closed`, error),
    );
    void session.client.close().catch(() => undefined);
  }

  private adopt(session: Session): void {
    const replacing = this.state.session !== undefined;
    this.state.session = session;
    const { client } = session;
    this.serverInfo = client.getServerVersion();
    this.instructions = client.getInstructions();
    this.state.capabilities = client.getServerCapabilities();
    if (this.state.phase === "connecting") this.state.phase = "ready";
    this.hooks.adopted(session, replacing);
  }

  /** The session's transport closed. Unless we closed it, the server is gone. */
  private onSessionClosed(session: Session): void {
    this.lose(session, () => connectionLostFault(this.config.id, session.transport, this.stderr.tail()));
  }

  /** A remote server stopped answering on the network: its session is closed, and it is gone. */
  private onRemoteLost(session: Session, error: unknown): void {
    if (this.lose(session, () => this.access.toFault("connect", error))) void endSession(session, false);
  }

  /** The live session's server is gone: reconnect under the policy, or fault. False: not the live session. */
  private lose(session: Session, faultOf: () => ProtocolFault): boolean {
    if (session.retired || this.state.session !== session) return false;
    if (this.closing || this.state.phase !== "ready") return false;
    session.retired = true;
    const fault = faultOf();
    if (this.reconnect) {
      this.state.fault = fault;
      this.state.phase = "connecting";
      this.startReconnect(this.reconnect, fault);
      return true;
    }
    this.enterFault(fault);
    return true;
  }

  /** Reconnect with exponential backoff (see `reconnect.ts`); `open()` meanwhile waits on the outcome. */
  private startReconnect(policy: ReconnectPolicy, lost: ProtocolFault): void {
    const reconnecting = scheduleReconnect(
      policy,
      lost,
      {
        server: this.config.id,
        connect: () => this.opener.open(),
        closing: () => this.closing !== undefined,
        adopt: (session) => {
          this.state.fault = undefined;
          this.adopt(session);
          this.hooks.recovered();
        },
        discard: (session) => void endSession(session, true),
        toFault: (error) => this.access.toFault("connect", error),
        giveUp: (fault) => this.enterFault(fault),
      },
      () => {
        this.cancelReconnect = undefined;
        this.opening = undefined;
      },
    );
    this.opening = reconnecting.outcome;
    this.cancelReconnect = reconnecting.cancel;
  }

  /** A fresh Streamable HTTP session for one the server forgot (see `session-renewal.ts`). */
  private renew(stale: Session): Promise<Session> {
    const config = this.config;
    if (config.transport !== "streamable-http") {
      return Promise.reject(new Error("only Streamable HTTP sessions re-initialize"));
    }
    return this.renewal.renew(stale, config);
  }
}

/** `state` whose phase writes tell `listeners` (a listener's bug is not the server's fault). */
function phaseHeard(state: LiveState, listeners: ReadonlySet<(phase: EndpointPhase) => void>): LiveState {
  let phase = state.phase;
  return Object.defineProperty(state, "phase", {
    enumerable: true,
    get: () => phase,
    set: (next: EndpointPhase) => {
      if (next === phase) return;
      phase = next;
      for (const listener of [...listeners]) {
        try {
          listener(next);
        } catch {
          // Ignored: see above.
        }
      }
    },
  });
}
