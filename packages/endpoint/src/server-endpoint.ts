/**
 * One live connection to one MCP server, built on the SDK's `Client` and
 * transports: an explicit phase machine (`idle → connecting → ready →
 * closing → closed`, any failure → `faulted`), single-flight open, deadlines
 * on every request, Streamable HTTP session recovery, and clean shutdown.
 * The parts live beside it: opening sessions and era negotiation
 * (`session-opener.ts`), the tool list (`tool-catalog.ts`), reconnects
 * (`reconnect.ts`), the relayed members (`relay-members.ts`); faults are
 * classified by site (`fault-sites.ts`).
 */
import type { ServerCapabilities, Transport } from "@modelcontextprotocol/client";
import {
  SERVER_ID_PATTERN,
  type CallLogs,
  type ClientHostHooks,
  type GatewayCallOptions,
  type InputRound,
  type LogLevel,
  isProtocolFault,
  protocolFault,
  type EndpointPhase,
  type EndpointStatus,
  type InvokeOptions,
  type JsonObject,
  type ProtocolEra,
  type ProtocolFault,
  type RemoteCallResult,
  type RemoteTool,
  type ServerConfig,
  type SkillEntry,
  type SkillFile,
  type McpEndpoint,
  type TransportKind,
} from "@indus/contract";
import { IssueLog } from "./inbound/issue-log";
import { DEFAULT_CLIENT_INFO } from "./client-identity";
import { requestWithDeadline, type DeadlineOptions } from "./deadline";
import { readRoundResult, retryOnLegacy, withRound } from "./peer/input-handback";
import { resolveTimeouts, type EndpointOptions, type EndpointTimeouts } from "./endpoint-options";
import { registerHostHandlers } from "./peer/client-host";
import { outsideCalls } from "./peer/call-context";
import { PeerRouter } from "./peer/peer-routing";
import { RelayMembers } from "./peer/relay-members";
import { SkillsMember } from "./catalog/skills";
import { connectionLostFault, faultAt, type FaultSite } from "./faults/fault-sites";
import type { ResponseTooLargeError } from "./http/response-cap";
import { usesClientCredentials } from "./auth/client-credentials";
import { authFailure, redeemSignIn } from "./auth/http-auth";
import { isSessionGone } from "./http/http-transports";
import { ProcessStdioTransport } from "./stdio/process-stdio-transport";
import { StderrTail } from "./stdio/stderr-tail";
import type { ToolsChangeListener } from "./tools/tool-changes";
import { paramHeaderValues } from "./http/mcp-param-headers";
import { allPages } from "./pages";
import { scheduleReconnect } from "./connect/reconnect";
import { withModernMeta, withTrace } from "./request-meta";
import { endSession, type Session } from "./session";
import { listen } from "./connect/session-client";
import { SessionOpener } from "./connect/session-opener";
import { SessionRenewal } from "./connect/session-renewal";
import { ToolCatalog, type ToolCallTraits } from "./tools/tool-catalog";
import { callAsTask, offersToolTasks } from "./tools/tool-task";
import { AnyResultSchema, keepWithString, readCallResult } from "./wire";

/** Which catalog list changed on the server. */
export type CatalogChange = "resources" | "prompts";

export class McpServerEndpoint implements McpEndpoint {
  readonly config: ServerConfig;
  private readonly options: EndpointOptions;
  private readonly timeouts: EndpointTimeouts;
  private readonly stderr: StderrTail;
  private readonly injected: Transport | undefined;
  /** Which client answers the server's requests for input (see `peer-routing.ts`). */
  private readonly router: PeerRouter;
  /** Completions, subscriptions, logs and roots changes (see `relay-members.ts`). */
  private readonly relay: RelayMembers;
  private readonly opener: SessionOpener;
  private readonly tools: ToolCatalog;
  private readonly issueLog = new IssueLog();
  private readonly skills: SkillsMember;
  private readonly renewal: SessionRenewal;

  private phaseValue: EndpointPhase = "idle";
  private faultValue: ProtocolFault | undefined;
  private session: Session | undefined;
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private cancelReconnect: (() => void) | undefined;
  private readonly catalogListeners = new Set<(change: CatalogChange) => void>();

  private serverInfoValue:
    { readonly name: string; readonly version: string; readonly [key: string]: unknown } | undefined;
  private instructionsValue: string | undefined;
  private capabilitiesValue: ServerCapabilities | undefined;

  constructor(config: ServerConfig, injected?: Transport, options: EndpointOptions = {}) {
    this.config = config;
    this.injected = injected;
    this.options = options;
    this.timeouts = resolveTimeouts(config, options);
    const logFile =
      options.logDir && SERVER_ID_PATTERN.test(config.id) ? `${options.logDir}/${config.id}.log` : undefined;
    this.stderr = new StderrTail(options.stderrLines, logFile);
    this.router = new PeerRouter(config.id, options.host, () => this.callsNeedScope());
    this.relay = new RelayMembers({
      request: (what, method, params, call) => this.catalogRequest(what, { method, params }, call),
      era: (what) => this.readySession(what).era,
      relisten: () => this.relisten(),
      rootsChanged: async () => {
        const session = this.readySession("notify roots changed");
        if (this.options.host?.listRoots) await session.client.sendRootsListChanged();
      },
      callLogs: () => this.router.logsNow(this.session?.kind === "stdio" && this.session.era === "2026-07-28"),
    });
    this.tools = new ToolCatalog({
      server: config.id,
      listMs: this.timeouts.listMs,
      ready: () => this.phaseValue === "ready" && this.session !== undefined,
      current: () => this.session,
      notConnected: (what) => this.notConnected(what),
      onSession: (what, op) => this.onSession(what, "list", op),
      toFault: (error) => this.toFault("list", error),
    });
    this.skills = new SkillsMember({
      server: config.id,
      onClient: (what, op) => this.onSession(what, "list", (session) => op(session.client)),
      timeoutMs: () => this.timeouts.callMs,
    });
    this.opener = new SessionOpener(
      {
        config,
        injected,
        options,
        timeouts: this.timeouts,
        clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
        stderr: this.stderr,
      },
      {
        wire: (session) => this.wire(session),
        dropped: (method, issues) =>
          method === "tools/list" ? this.tools.noteDropped(issues) : this.issueLog.add(method, issues),
        resourceSubscriptions: () => this.relay.resourceSubscriptions,
        tooLarge: (error) => this.onResponseTooLarge(error),
      },
    );
    this.renewal = new SessionRenewal(this.opener, this.timeouts.startupMs, {
      current: () => this.session,
      adopt: (session) => {
        this.adopt(session);
        if (this.tools.cached) void this.refreshTools().catch(() => undefined);
      },
      fail: (error) => {
        const fault = this.toFault("connect", error);
        this.enterFault(fault);
        return fault;
      },
    });
  }

  get phase(): EndpointPhase {
    return this.phaseValue;
  }

  /** The fault that put this endpoint in `faulted`, if any. */
  get fault(): ProtocolFault | undefined {
    return this.faultValue;
  }

  /** The server's `serverInfo` from `initialize`. */
  get serverInfo(): { readonly name: string; readonly version: string; readonly [key: string]: unknown } | undefined {
    return this.serverInfoValue;
  }

  /** The server's `instructions` from `initialize`: how it wants to be used. */
  get instructions(): string | undefined {
    return this.instructionsValue;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.capabilitiesValue;
  }

  /** The transport actually in use: a `streamable-http` config may have fallen back to `sse`. */
  get transportKind(): TransportKind | undefined {
    return this.session?.kind;
  }

  /** The MCP era of the live connection: `2026-07-28` or `legacy`. */
  get era(): ProtocolEra | undefined {
    return this.session?.era;
  }

  /** For stdio servers: the spawned child's pid (and process group id). */
  get pid(): number | undefined {
    return this.opener.pid;
  }

  /**
   * Why the last tool listing failed (a timeout, a bad reply), until one
   * succeeds: a ready server whose listing failed offers no tools, and a host
   * should say so rather than show "ready, 0 tools".
   */
  get listFault(): ProtocolFault | undefined {
    return this.tools.listFault;
  }

  /** Tools the last listing skipped, and why. */
  get listIssues(): readonly string[] {
    return this.tools.listIssues;
  }

  /** What the server sent that was dropped or repaired: recent messages, then the last tool listing. */
  get issues(): readonly string[] {
    return [...this.issueLog.list(), ...this.tools.listIssues.map((issue) => `tools/list: ${issue}`)];
  }

  /** The last lines the server wrote to stderr (stdio servers only). */
  stderrTail(maxLines?: number): string[] {
    return this.stderr.tail(maxLines);
  }

  status(): EndpointStatus {
    const era = this.session?.era;
    const base = {
      server: this.config.id,
      phase: this.phaseValue,
      toolCount: this.tools.cached?.length ?? 0,
      ...(era ? { era } : {}),
    };
    return this.faultValue ? { ...base, fault: this.faultValue } : base;
  }

  /** Listen for tool-list changes the server announces; returns an unsubscribe. */
  onToolsChanged(listener: ToolsChangeListener): () => void {
    return this.tools.onChanged(listener);
  }

  /** Listen for resource or prompt list changes; returns an unsubscribe. */
  onCatalogChanged(listener: (change: CatalogChange) => void): () => void {
    this.catalogListeners.add(listener);
    return () => this.catalogListeners.delete(listener);
  }

  // ---- lifecycle -----------------------------------------------------------

  open(): Promise<void> {
    switch (this.phaseValue) {
      case "ready":
        return Promise.resolve();
      case "connecting":
        return this.opening ?? Promise.reject(this.notConnected("open"));
      case "faulted":
        return Promise.reject(this.faultValue ?? this.notConnected("open"));
      case "closing":
      case "closed":
        return Promise.reject(protocolFault("not-connected", `server "${this.config.id}" is ${this.phaseValue}`));
      case "idle":
        break;
    }
    this.phaseValue = "connecting";
    const attempt = this.opener.open().then(
      (session) => {
        this.adopt(session);
      },
      (error: unknown) => {
        const fault = this.closing
          ? protocolFault("not-connected", `server "${this.config.id}" was closed while connecting`, error)
          : this.toFault("connect", error);
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
    const faulted = this.phaseValue === "faulted";
    if (!faulted) this.phaseValue = "closing";
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
    const session = this.session;
    if (session) await endSession(session, true);
    await this.opener.drain();
    this.stderr.close();
    if (this.phaseValue !== "faulted") this.phaseValue = "closed";
  }

  private enterFault(fault: ProtocolFault): void {
    if (this.phaseValue === "closed" || this.phaseValue === "closing") return;
    this.faultValue = fault;
    this.phaseValue = "faulted";
  }

  /** A new session's handlers: host hooks, relayed notifications, list changes, its closing. */
  private wire(session: Session): void {
    const { client } = session;
    const live = () => this.session === session && !session.retired;
    registerHostHandlers(client, this.config.id, this.options.host, this.router);
    this.relay.attach(client, live);
    client.onerror = () => undefined;
    client.onclose = () => this.onSessionClosed(session);
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      if (live()) void this.refreshTools().catch(() => undefined);
    });
    client.setNotificationHandler("notifications/resources/list_changed", () => this.emitCatalog(session, "resources"));
    client.setNotificationHandler("notifications/prompts/list_changed", () => this.emitCatalog(session, "prompts"));
  }

  /** A new 2026-era listen stream for the current filter, then the old one closed (no gap in updates). */
  private async relisten(): Promise<void> {
    const session = this.readySession("change resource subscriptions");
    const next = await outsideCalls(() =>
      listen(session.client, this.relay.resourceSubscriptions, this.timeouts.startupMs),
    );
    const previous = session.subscription;
    session.subscription = next;
    await previous?.close().catch(() => undefined);
  }

  /**
   * An SSE event over the cap: the SDK reports the broken stream only as text
   * and may wait for a reply that never comes, so the session is faulted here
   * (as an over-size stdio message faults it). A whole JSON body over the cap
   * fails only its own request.
   */
  private onResponseTooLarge(error: ResponseTooLargeError): void {
    const session = this.session;
    if (!error.inStream || !session || session.retired || this.closing) return;
    session.retired = true;
    this.enterFault(
      protocolFault("protocol", `server "${this.config.id}": ${error.message}; connection closed`, error),
    );
    void session.client.close().catch(() => undefined);
  }

  private adopt(session: Session): void {
    const replacing = this.session !== undefined;
    this.session = session;
    const { client } = session;
    this.serverInfoValue = client.getServerVersion();
    this.instructionsValue = client.getInstructions();
    this.capabilitiesValue = client.getServerCapabilities();
    if (this.phaseValue === "connecting") this.phaseValue = "ready";
    if (replacing && session.era === "legacy") this.relay.reapply();
  }

  private emitCatalog(session: Session, change: CatalogChange): void {
    if (this.session !== session || session.retired) return;
    for (const listener of this.catalogListeners) {
      try {
        listener(change);
      } catch {
        // A listener's bug is not the server's fault.
      }
    }
  }

  /** The session's transport closed. Unless we closed it, the server is gone. */
  private onSessionClosed(session: Session): void {
    if (session.retired || this.session !== session) return;
    if (this.closing || this.phaseValue !== "ready") return;
    session.retired = true;
    const fault = connectionLostFault(this.config.id, session.transport, this.stderr.tail());
    const policy = this.config.reconnect;
    if (policy) {
      this.phaseValue = "connecting";
      this.faultValue = fault;
      this.startReconnect(policy, fault);
      return;
    }
    this.enterFault(fault);
  }

  /** Reconnect with exponential backoff (see `reconnect.ts`); `open()` meanwhile waits on the outcome. */
  private startReconnect(policy: NonNullable<ServerConfig["reconnect"]>, lost: ProtocolFault): void {
    const reconnecting = scheduleReconnect(
      policy,
      lost,
      {
        server: this.config.id,
        connect: () => this.opener.open(),
        closing: () => this.closing !== undefined,
        adopt: (session) => {
          this.faultValue = undefined;
          this.adopt(session);
          if (this.tools.cached) void this.refreshTools().catch(() => undefined);
        },
        discard: (session) => void endSession(session, true),
        toFault: (error) => this.toFault("connect", error),
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

  // ---- requests ------------------------------------------------------------

  private notConnected(what: string): ProtocolFault {
    const fault = this.faultValue;
    const why = fault ? `: ${fault.message}` : "";
    return protocolFault(
      "not-connected",
      `cannot ${what}: server "${this.config.id}" is ${this.phaseValue}${why}`,
      fault,
    );
  }

  private readySession(what: string | (() => string)): Session {
    if (this.phaseValue !== "ready" || !this.session) throw this.notConnected(typeof what === "string" ? what : what());
    return this.session;
  }

  /**
   * Run `op` on the live session; on a lost Streamable HTTP session (404),
   * re-initialize and retry once. Errors become faults for `site`. Written
   * with `.catch` rather than nested async frames: this is every call's path.
   */
  private onSession<T>(
    what: string | (() => string),
    site: Exclude<FaultSite, "connect">,
    op: (session: Session) => Promise<T>,
  ): Promise<T> {
    const session = this.session;
    if (this.phaseValue !== "ready" || !session) {
      return Promise.reject(this.notConnected(typeof what === "string" ? what : what()));
    }
    return op(session).catch((error: unknown) => this.recover(error, session, site, op));
  }

  private async recover<T>(
    error: unknown,
    session: Session,
    site: Exclude<FaultSite, "connect">,
    op: (session: Session) => Promise<T>,
  ): Promise<T> {
    const oauth = this.opener.oauth;
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
      return await op(await this.renew(session));
    } catch (retryError) {
      throw this.toFault(site, retryError, session);
    }
  }

  /** Classify `error` by where it happened (see `fault-sites.ts`). */
  private toFault(site: FaultSite, error: unknown, session?: Session): ProtocolFault {
    // The session died under this request: the request fails with the endpoint's own fault.
    if (session && session.retired && this.faultValue && this.session === session && !isProtocolFault(error)) {
      return this.faultValue;
    }
    // A connect attempt's own process, else the live session's.
    const live = this.session?.transport;
    const stdio = site === "connect" || !(live instanceof ProcessStdioTransport) ? this.opener.lastStdio : live;
    return faultAt(site, this.config.id, error, {
      spawned: this.config.transport === "stdio" && !this.injected,
      exit: stdio?.exitInfo,
      garbage: stdio?.garbage,
      pipeLoss: stdio?.pipeLoss,
      stderr: this.stderr.tail(),
      signInHint: this.options.oauth?.signInHint?.(this.config.id),
      machineGrant: this.config.transport !== "stdio" && usesClientCredentials(this.config),
    });
  }

  // ---- tools ---------------------------------------------------------------

  /** Every tool the server offers (all pages), qualified and normalized; cached. */
  listTools(): Promise<readonly RemoteTool[]> {
    return this.tools.list();
  }

  /**
   * Re-read the whole tool list now. Refreshes coalesce: one asked for while
   * another runs gets that one's result, and one more pass follows it (its
   * changes reach `onToolsChanged` subscribers).
   */
  refreshTools(): Promise<readonly RemoteTool[]> {
    return this.tools.refresh();
  }

  /**
   * Call a tool by its server-side name; the result is the server's, untouched.
   * The server's requests for input during the call go to `options.peer`
   * (see `peer-routing.ts`); in the 2026 era the call also declares that
   * client's capabilities, so the server itself refuses what it cannot answer.
   */
  invoke(name: string, args: unknown, options: InvokeOptions = {}): Promise<RemoteCallResult> {
    const traits = this.tools.callTraits(name);
    if (
      traits === undefined &&
      this.tools.cached === undefined &&
      this.tools.listFault === undefined &&
      this.session?.era === "legacy" &&
      offersToolTasks(this.capabilitiesValue)
    ) {
      // Which tools must run as tasks (2025 era) only the listing says: list first. A failed listing calls
      // plainly, and is not run again before every call (that would add its timeout to each).
      const call = () => this.call(name, args, options, this.tools.callTraits(name));
      return this.tools.list().then(call, call);
    }
    return this.call(name, args, options, traits);
  }

  /** `tools/call`, plain or as a task (see `tool-task.ts`), with the call's deadline, headers and peer. */
  private call(
    name: string,
    args: unknown,
    options: InvokeOptions,
    traits: ToolCallTraits | undefined,
  ): Promise<RemoteCallResult> {
    const request = {
      method: "tools/call",
      params: withTrace(
        { name, arguments: args === undefined || args === null ? {} : (args as Record<string, unknown>) },
        options.trace,
      ),
    };
    const declared = traits?.paramHeaders;
    const deadline = {
      timeoutMs: options.timeoutMs ?? this.timeouts.callMs,
      totalMs: Math.max(this.timeouts.callTotalMs, options.timeoutMs ?? 0),
      signal: options.signal,
      onProgress: options.onProgress,
      headers: declared ? paramHeaderValues(declared, request.params.arguments) : undefined,
    };
    const { peer, logs, inputRound } = options;
    return this.router.during(
      peer,
      () =>
        this.onSession(
          () => `call "${name}"`,
          "call",
          (session) =>
            inputRound === undefined
              ? (traits?.task && session.era === "legacy"
                  ? callAsTask(session.client, request, deadline)
                  : requestWithDeadline<unknown>(
                      session.client,
                      session.era === "2026-07-28" ? this.withMeta(request, peer, logs) : request,
                      AnyResultSchema,
                      deadline,
                    )
                ).then(readCallResult)
              : this.callInRound(session, request, deadline, options, inputRound, traits),
        ),
      logs,
    );
  }

  /**
   * A call whose caller answers the server's questions itself: in the 2026
   * era the `input_required` result comes back as it is (`questions`); a
   * 2025-era server asks through the call's peer as usual, and cannot be
   * retried with another revision's state.
   */
  private callInRound(
    session: Session,
    request: { method: string; params: Record<string, unknown> },
    deadline: DeadlineOptions & { readonly totalMs: number },
    options: InvokeOptions,
    round: InputRound,
    traits: ToolCallTraits | undefined,
  ): Promise<RemoteCallResult> {
    if (session.era === "2026-07-28") {
      const sent = this.withMeta(withRound(request, round), options.peer, options.logs);
      return requestWithDeadline<unknown>(session.client, sent, AnyResultSchema, {
        ...deadline,
        allowInputRequired: true,
      }).then(readRoundResult);
    }
    if (round.kind === "retry") return Promise.reject(retryOnLegacy(this.config.id));
    const plain = traits?.task
      ? callAsTask(session.client, request, deadline)
      : requestWithDeadline<unknown>(session.client, request, AnyResultSchema, deadline);
    return plain.then(readCallResult);
  }

  /**
   * Whether a request of the server can arrive in the async context of the
   * call that caused it (see `call-context.ts`): always, but on a live
   * 2025-era stdio process, whose requests are read from its stdout outside
   * every call (an injected transport may deliver in the caller's context).
   */
  private callsNeedScope(): boolean {
    const session = this.session;
    return session === undefined || this.injected !== undefined || session.kind !== "stdio" || session.era !== "legacy";
  }

  /**
   * A 2026-era request with `peer`'s capabilities and the log level in
   * `_meta` (see `request-meta.ts`): the caller's own when it takes the
   * call's logs itself (none when it takes none), else the one set for all.
   */
  private withMeta<R extends { params: Record<string, unknown> }>(
    request: R,
    peer: ClientHostHooks | undefined,
    logs: CallLogs | undefined,
  ): R {
    return withModernMeta(request, peer, logs ? logs.level : this.relay.logLevel, this.options.host);
  }

  // ---- relay: completions, subscriptions, logs, roots ------------------------

  complete(params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject> {
    return this.relay.complete(params, options);
  }

  subscribeResource(uri: string, options?: GatewayCallOptions): Promise<void> {
    return this.relay.subscribeResource(uri, options);
  }

  unsubscribeResource(uri: string, options?: GatewayCallOptions): Promise<void> {
    return this.relay.unsubscribeResource(uri, options);
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.relay.onResourceUpdated(listener);
  }

  setLogLevel(level: LogLevel, options?: GatewayCallOptions): Promise<void> {
    return this.relay.setLogLevel(level, options);
  }

  onLog(listener: (params: JsonObject) => void): () => void {
    return this.relay.onLog(listener);
  }

  notifyRootsChanged(): Promise<void> {
    return this.relay.notifyRootsChanged();
  }

  // ---- skills (SEP-2640; see skills.ts) ---------------------------------------

  listSkills(options?: GatewayCallOptions): Promise<readonly SkillEntry[]> {
    return this.skills.list(options);
  }

  getSkill(uri: string, options?: GatewayCallOptions): Promise<SkillEntry> {
    return this.skills.get(uri, options);
  }

  readSkill(skill: SkillEntry, ref?: string, options?: GatewayCallOptions): Promise<SkillFile> {
    return this.skills.read(skill, ref, options);
  }

  // ---- resources and prompts -------------------------------------------------

  private supports(capability: "resources" | "prompts"): boolean {
    return this.capabilitiesValue?.[capability] !== undefined;
  }

  /** Every resource (all pages), as the server describes them; `[]` without the capability. */
  listResources(options: { signal?: AbortSignal } = {}): Promise<JsonObject[]> {
    return this.listCatalog("list resources", "resources", "resources/list", "resources", "uri", options.signal);
  }

  /** Every resource template (all pages); `[]` without the capability. */
  listResourceTemplates(options: { signal?: AbortSignal } = {}): Promise<JsonObject[]> {
    return this.listCatalog(
      "list resource templates",
      "resources",
      "resources/templates/list",
      "resourceTemplates",
      "uriTemplate",
      options.signal,
    );
  }

  /** Every prompt (all pages); `[]` without the capability. */
  listPrompts(options: { signal?: AbortSignal } = {}): Promise<JsonObject[]> {
    return this.listCatalog("list prompts", "prompts", "prompts/list", "prompts", "name", options.signal);
  }

  /** All pages of one catalog list, keeping the entries that carry their identifying string. */
  private async listCatalog(
    what: string,
    capability: "resources" | "prompts",
    method: string,
    key: string,
    identity: string,
    signal?: AbortSignal,
  ): Promise<JsonObject[]> {
    this.readySession(what);
    if (!this.supports(capability)) return [];
    const raw = await this.onSession(what, "list", (session) =>
      allPages(session.client, method, key, { timeoutMs: this.timeouts.listMs, signal }),
    );
    return keepWithString(raw, identity);
  }

  /** `resources/read`, result untouched. */
  readResource(uri: string, options: GatewayCallOptions = {}): Promise<JsonObject> {
    return this.catalogRequest(`read resource ${uri}`, { method: "resources/read", params: { uri } }, options);
  }

  /** `prompts/get`, result untouched. */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>> = {},
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    const request = { method: "prompts/get", params: { name, arguments: { ...args } } };
    return this.catalogRequest(`get prompt ${name}`, request, options);
  }

  /**
   * One request beside tools (read, prompt, completion), for `options.peer`
   * like a call: in the 2026 era its input requests go to that client.
   */
  private catalogRequest(
    what: string,
    request: { method: string; params: Record<string, unknown> },
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    return this.router.during(
      options.peer,
      () =>
        this.onSession(what, "list", (session) => {
          const deadline = { timeoutMs: this.timeouts.callMs, signal: options.signal };
          const round = options.inputRound;
          if (session.era !== "2026-07-28") {
            if (round?.kind === "retry") return Promise.reject(retryOnLegacy(this.config.id));
            return requestWithDeadline<JsonObject>(session.client, request, AnyResultSchema, deadline);
          }
          if (round === undefined) {
            const sent = this.withMeta(request, options.peer, options.logs);
            return requestWithDeadline<JsonObject>(session.client, sent, AnyResultSchema, deadline);
          }
          // The caller answers the server's questions itself: an input_required result comes back as sent.
          const sent = this.withMeta(withRound(request, round), options.peer, options.logs);
          return requestWithDeadline<JsonObject>(session.client, sent, AnyResultSchema, {
            ...deadline,
            allowInputRequired: true,
          });
        }),
      options.logs,
    );
  }
}

/** One endpoint per server config; `injected` bypasses the config's transport (in-process use, tests). */
export function createServerEndpoint(
  config: ServerConfig,
  injected?: Transport,
  options?: EndpointOptions,
): McpServerEndpoint {
  return new McpServerEndpoint(config, injected, options);
}
