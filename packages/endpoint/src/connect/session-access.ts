/**
 * The session port as the endpoint implements it: its requests reach the live
 * session here, a lost Streamable HTTP session is re-initialized and a step-up
 * sign-in redeemed on the way, and every failure becomes a fault classified by
 * site. The lifecycle writes the state it reads (`LiveState`), nothing else.
 */
import {
  isProtocolFault,
  protocolFault,
  type CallLogs,
  type JsonObject,
  type ClientHostHooks,
  type EndpointPhase,
  type LogLevel,
  type ProtocolFault,
  type ServerConfig,
} from "@indus/contract";
import type { ServerCapabilities, Transport } from "@modelcontextprotocol/client";
import { usesClientCredentials } from "../auth/client-credentials";
import { authFailure, redeemSignIn } from "../auth/http-auth";
import type { EndpointOptions, EndpointTimeouts } from "../endpoint-options";
import { faultAt, type FaultSite } from "../faults/fault-sites";
import { isSessionGone } from "../http/http-transports";
import type { RelayRouter } from "../relay/relay-routing";
import { answerQuestion, type QuestionMethod } from "../relay/client-host";
import { withModernMeta } from "../request-meta";
import type { Session } from "../session";
import type { RequestSite, RequestWhat, SessionPort } from "../session-port";
import { ProcessStdioTransport } from "../stdio/process-stdio-transport";
import type { StderrTail } from "../stdio/stderr-tail";
import type { SessionOpener } from "./session-opener";
import type { ClientWaits } from "../relay/client-waits";

/** The endpoint's phase and live session: written by its lifecycle alone. */
export interface LiveState {
  phase: EndpointPhase;
  /** The fault that put the endpoint in `faulted` (or that a reconnect is recovering from). */
  fault: ProtocolFault | undefined;
  session: Session | undefined;
  /** The live session's handshake capabilities, kept after it ends. */
  capabilities: ServerCapabilities | undefined;
}

/** What the port needs of the endpoint's parts. */
export interface AccessSetup {
  readonly config: ServerConfig;
  readonly injected: Transport | undefined;
  readonly options: EndpointOptions;
  readonly timeouts: EndpointTimeouts;
  readonly stderr: StderrTail;
  readonly opener: SessionOpener;
  readonly router: RelayRouter;
  /** A fresh Streamable HTTP session for one the server forgot (see `session-renewal.ts`). */
  renew(stale: Session): Promise<Session>;
  /** The log level set for every call (see `relay-members.ts`). */
  logLevel(): LogLevel | undefined;
}

export class SessionAccess implements SessionPort {
  readonly server: string;
  readonly timeouts: EndpointTimeouts;

  get clientWaits(): ClientWaits {
    return this.setup.router.waits;
  }

  constructor(
    private readonly state: LiveState,
    private readonly setup: AccessSetup,
  ) {
    this.server = setup.config.id;
    this.timeouts = setup.timeouts;
  }

  current(): Session | undefined {
    return this.state.session;
  }

  capabilities(): ServerCapabilities | undefined {
    return this.state.capabilities;
  }

  notConnected(what: string): ProtocolFault {
    const fault = this.state.fault;
    const why = fault ? `: ${fault.message}` : "";
    return protocolFault(
      "not-connected",
      `cannot ${what}: server "${this.server}" is ${this.state.phase}${why}`,
      fault,
    );
  }

  readySession(what: RequestWhat): Session {
    const { phase, session } = this.state;
    if (phase !== "ready" || !session) throw this.notConnected(typeof what === "string" ? what : what());
    return session;
  }

  /**
   * Run `op` on the live session; on a lost Streamable HTTP session (404),
   * re-initialize and retry once. Errors become faults for `site`. Written
   * with `.catch` rather than nested async frames: this is every call's path.
   */
  onSession<T>(what: RequestWhat, site: RequestSite, op: (session: Session) => Promise<T>): Promise<T> {
    const { phase, session } = this.state;
    if (phase !== "ready" || !session) {
      return Promise.reject(this.notConnected(typeof what === "string" ? what : what()));
    }
    return op(session).catch((error: unknown) => this.recover(error, session, site, op));
  }

  during<T>(relayTo: ClientHostHooks | undefined, work: () => Promise<T>, logs?: CallLogs): Promise<T> {
    return this.setup.router.during(relayTo, work, logs);
  }

  /** The caller's own log level when it takes the call's logs itself (none when it takes none), else the one set for all. */
  withMeta<R extends { params: Record<string, unknown> }>(
    request: R,
    relayTo: ClientHostHooks | undefined,
    logs: CallLogs | undefined,
    tasks = false,
  ): R {
    const level = logs ? logs.level : this.setup.logLevel();
    return withModernMeta(request, { relayTo, level, host: this.setup.options.host, tasks });
  }

  answer(method: QuestionMethod, params: JsonObject, signal: AbortSignal, key: string): Promise<JsonObject> {
    return answerQuestion(this.setup.router, this.setup.config.id, { method, params, signal, key });
  }

  /** Classify `error` by where it happened (see `fault-sites.ts`). */
  toFault(site: FaultSite, error: unknown, session?: Session): ProtocolFault {
    const { config, injected, options, stderr, opener } = this.setup;
    // The session died under this request: the request fails with the endpoint's own fault.
    if (session?.retired && this.state.fault && this.state.session === session && !isProtocolFault(error)) {
      return this.state.fault;
    }
    // A connect attempt's own process, else the live session's.
    const live = this.state.session?.transport;
    const stdio = site === "connect" || !(live instanceof ProcessStdioTransport) ? opener.lastStdio : live;
    return faultAt(site, config.id, error, {
      spawned: config.transport === "stdio" && !injected,
      exit: stdio?.exitInfo,
      garbage: stdio?.garbage,
      pipeLoss: stdio?.pipeLoss,
      stderr: stderr.tail(),
      signInHint: options.oauth?.signInHint?.(config.id),
      machineGrant: config.transport !== "stdio" && usesClientCredentials(config),
    });
  }

  private async recover<T>(
    error: unknown,
    session: Session,
    site: RequestSite,
    op: (session: Session) => Promise<T>,
  ): Promise<T> {
    const oauth = this.setup.opener.oauth;
    if (oauth && authFailure(error) !== undefined) {
      // A step-up the user just authorized in the browser: redeem it and try once more.
      if (!(await redeemSignIn(session.transport, oauth).catch(() => false))) throw this.toFault(site, error, session);
      try {
        return await op(session);
      } catch (retryError) {
        throw this.toFault(site, retryError, session);
      }
    }
    if (!isSessionGone(error) || session.kind !== "streamable-http" || session.era !== "legacy")
      throw this.toFault(site, error, session);
    try {
      return await op(await this.setup.renew(session));
    } catch (retryError) {
      throw this.toFault(site, retryError, session);
    }
  }
}
