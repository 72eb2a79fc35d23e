/**
 * One live connection to one MCP server, built on the SDK's `Client` and
 * transports: an explicit phase machine (`idle → connecting → ready →
 * closing → closed`, any failure → `faulted`), single-flight open, deadlines
 * on every request, tool listing that survives bad tools, list-change
 * following, Streamable HTTP session recovery, and clean shutdown. Faults are
 * classified by site (see `fault-sites.ts`).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type McpSubscription,
  type PriorDiscovery,
  type ServerCapabilities,
  type Transport,
} from "@modelcontextprotocol/client";
import {
  SERVER_ID_PATTERN,
  type ClientHostHooks,
  type GatewayCallOptions,
  type LogLevel,
  isProtocolFault,
  parseServerConfig,
  protocolFault,
  type EndpointPhase,
  type EndpointStatus,
  type InvokeOptions,
  type JsonObject,
  type ProtocolEra,
  type ProtocolFault,
  type ProtocolMode,
  type RemoteCallResult,
  type RemoteTool,
  type HttpServerConfig,
  type ServerConfig,
  type McpEndpoint,
  type TransportKind,
  type EraVerdict,
  type EraVerdictStore,
  type LegacyVerdictReason,
} from "@indus/contract";
import { DEFAULT_CLIENT_INFO, type ClientIdentity } from "./client-identity";
import { DeadlineExceeded, requestWithDeadline } from "./deadline";
import {
  DEFAULT_CLOSE_GRACE_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  resolveTimeouts,
  type EndpointOptions,
  type EndpointTimeouts,
} from "./endpoint-options";
import { callCapabilities, clientCapabilities, registerHostHandlers } from "./client-host";
import { callScopedTransport, outsideCalls } from "./call-context";
import { PeerRouter } from "./peer-routing";
import { RelayMembers } from "./relay-members";
import { isModernOnlyRefusal, refusedRevisions } from "./era-mismatch";
import { isExpired, listExpiry } from "./list-expiry";
import { probeOutcome } from "./era-verdict-expiry";
import { loadVerdict, priorOf, processEraVerdicts, saveVerdict, serverIdentity, verdictOf } from "./era-verdicts";
import { connectionLostFault, faultAt, type FaultSite } from "./fault-sites";
import { createHttpFetch, type HttpFetch } from "./http-fetch";
import type { ResponseTooLargeError } from "./response-cap";
import { authFailure, redeemSignIn } from "./http-auth";
import { createSseTransport, createStreamableTransport, isLegacyServerHint, isSessionGone } from "./http-transports";
import { StoredOAuthProvider } from "./oauth-provider";
import { ProcessStdioTransport } from "./process-stdio-transport";
import { StderrTail } from "./stderr-tail";
import { diffTools, isEmptyChange, type ToolsChange, type ToolsChangeListener } from "./tool-changes";
import { buildRemoteTools } from "./tool-listing";
import { sanitizeToolLists } from "./tool-list-sanitizer";
import { paramHeaderValues, paramHeaders, type ParamHeader } from "./mcp-param-headers";
import { AnyResultSchema, keepWithString, readCallResult, readPage } from "./wire";

/** Which catalog list changed on the server. */
export type CatalogChange = "resources" | "prompts";

interface Session {
  readonly client: Client;
  readonly transport: Transport;
  readonly kind: TransportKind;
  /** The era negotiated; set once connected. */
  era: ProtocolEra;
  /** The `subscriptions/listen` stream of a modern session (list_changed arrives only there). */
  subscription?: McpSubscription | undefined;
  /** Set once this session is being replaced or closed on purpose. */
  retired: boolean;
}

const MAX_PAGES = 1_000;
const SESSION_CLOSE_MS = 3_000;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class McpServerEndpoint implements McpEndpoint {
  readonly config: ServerConfig;
  private readonly options: EndpointOptions;
  private readonly timeouts: EndpointTimeouts;
  private readonly clientInfo: ClientIdentity;
  private readonly stderr: StderrTail;
  private readonly injected: Transport | undefined;
  /** Which client answers the server's requests for input (see `peer-routing.ts`). */
  private readonly router: PeerRouter;
  /** Completions, subscriptions, logs and roots changes (see `relay-members.ts`). */
  private readonly relay: RelayMembers;

  private phaseValue: EndpointPhase = "idle";
  private faultValue: ProtocolFault | undefined;
  private session: Session | undefined;
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  /** Cancels the connect in progress (closes its transport). */
  private abortConnect: (() => void) | undefined;
  private reiniting: Promise<Session> | undefined;
  private httpFetch: HttpFetch | undefined;
  /** The stored sign-in of an HTTP server, when the embedder keeps sign-ins (`options.oauth`). */
  private oauth: StoredOAuthProvider | undefined;
  private cancelReconnect: (() => void) | undefined;
  /** Shutdowns of failed connect attempts; close() waits for them. */
  private readonly cleanups = new Set<Promise<unknown>>();

  private toolsCache: readonly RemoteTool[] | undefined;
  /** When the cached tool list goes stale (the server's `ttlMs`, 2026 era); never when absent. */
  private toolsExpireAt: number | undefined;
  private listing: Promise<readonly RemoteTool[]> | undefined;
  private listAgain = false;
  private listIssuesValue: readonly string[] = [];
  /** Each tool's `x-mcp-header` declarations, from the last listing (2026 era over HTTP only). */
  private paramHeadersByTool = new Map<string, readonly ParamHeader[]>();
  /** Tools the transport-level sanitizer dropped during the listing under way. */
  private droppedTools: string[] = [];
  private listFaultValue: ProtocolFault | undefined;
  private readonly toolListeners = new Set<ToolsChangeListener>();
  private readonly catalogListeners = new Set<(change: CatalogChange) => void>();

  private serverInfoValue:
    { readonly name: string; readonly version: string; readonly [key: string]: unknown } | undefined;
  private instructionsValue: string | undefined;
  private capabilitiesValue: ServerCapabilities | undefined;
  private pidValue: number | undefined;

  constructor(config: ServerConfig, injected?: Transport, options: EndpointOptions = {}) {
    this.config = config;
    this.injected = injected;
    this.options = options;
    this.clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
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
    return this.pidValue;
  }

  /**
   * Why the last tool listing failed (a timeout, a bad reply), until one
   * succeeds: a ready server whose listing failed offers no tools, and a host
   * should say so rather than show "ready, 0 tools".
   */
  get listFault(): ProtocolFault | undefined {
    return this.listFaultValue;
  }

  /** Tools the last listing skipped, and why. */
  get listIssues(): readonly string[] {
    return this.listIssuesValue;
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
      toolCount: this.toolsCache?.length ?? 0,
      ...(era ? { era } : {}),
    };
    return this.faultValue ? { ...base, fault: this.faultValue } : base;
  }

  /** Listen for tool-list changes the server announces; returns an unsubscribe. */
  onToolsChanged(listener: ToolsChangeListener): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
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
    const attempt = this.connect().then(
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
    this.abortConnect?.();
    try {
      await this.opening;
    } catch {
      // The open fails because we are closing; that is expected.
    }
    try {
      await this.reiniting;
    } catch {
      // Same.
    }
    const session = this.session;
    if (session) await this.endSession(session, true);
    await Promise.all(this.cleanups);
    await this.httpFetch?.close();
    this.stderr.close();
    if (this.phaseValue !== "faulted") this.phaseValue = "closed";
  }

  /** Close one session: HTTP DELETE for a Streamable HTTP session, then the transport. Never throws. */
  private async endSession(session: Session, terminate: boolean): Promise<void> {
    session.retired = true;
    if (session.subscription) {
      await Promise.race([session.subscription.close().catch(() => undefined), delay(SESSION_CLOSE_MS)]);
    }
    if (terminate && session.transport instanceof StreamableHTTPClientTransport && session.transport.sessionId) {
      const transport = session.transport;
      await Promise.race([transport.terminateSession().catch(() => undefined), delay(SESSION_CLOSE_MS)]);
    }
    try {
      await session.client.close();
    } catch {
      // close() never throws.
    }
  }

  private enterFault(fault: ProtocolFault): void {
    if (this.phaseValue === "closed" || this.phaseValue === "closing") return;
    this.faultValue = fault;
    this.phaseValue = "faulted";
  }

  // ---- connecting ----------------------------------------------------------

  private newClient(mode: ProtocolMode): Client {
    const startupMs = this.timeouts.startupMs;
    return new Client(
      { name: this.clientInfo.name, version: this.clientInfo.version },
      {
        capabilities: clientCapabilities(this.options.host),
        versionNegotiation: {
          mode: mode === "2026-07-28" ? { pin: mode } : mode,
          // Pinned, silence is a slow start, not a legacy server: wait as long as startup may take.
          probe: { timeoutMs: mode === "auto" ? this.probeMs() : startupMs },
        },
        // We never call `listTools()`/`callTool()` (see `wire.ts`), so no schema is ever
        // compiled; this skips building an Ajv instance per connection.
        jsonSchemaValidator: {
          getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
        },
      },
    );
  }

  /** How long `auto` waits for the `server/discover` probe. */
  private probeMs(): number {
    return Math.min(this.timeouts.eraProbeMs, this.timeouts.startupMs);
  }

  /** Connect and handshake within the startup deadline. */
  private async connect(): Promise<Session> {
    if (!SERVER_ID_PATTERN.test(this.config.id)) {
      throw protocolFault(
        "protocol",
        `server id "${this.config.id}" is invalid: it must match ${SERVER_ID_PATTERN.source}`,
      );
    }
    // Configs built by hand skip the schema; check them here so a bad one faults, never crashes.
    const parsed = parseServerConfig(this.config);
    if (!parsed.ok) {
      const issues = parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      throw protocolFault("protocol", `server "${this.config.id}" has an invalid config: ${issues}`);
    }
    const config = parsed.value;
    const ms = this.timeouts.startupMs;
    let cancelled = false;
    let current: Transport | undefined;
    let timer: NodeJS.Timeout | undefined;
    const stop = (reason: "timeout" | "closed") =>
      new Promise<never>((_, reject) => {
        const fail = () => {
          cancelled = true;
          void current?.close().catch(() => undefined);
          reject(reason === "timeout" ? new DeadlineExceeded(ms, false) : new Error("closed while connecting"));
        };
        if (reason === "timeout") timer = setTimeout(fail, ms);
        else this.abortConnect = fail;
      });
    const track = (transport: Transport) => {
      current = transport;
      if (cancelled) void transport.close().catch(() => undefined);
      return transport;
    };
    const work = this.connectByConfig(config, track, () => cancelled);
    // The loser of the race must not become an unhandled rejection.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, stop("timeout"), stop("closed")]);
    } catch (error) {
      // Whatever was started is shut down, and close() waits for that to finish.
      if (current) this.cleanups.add(current.close().catch(() => undefined));
      // A session that completed just as the deadline fired is closed, not leaked. (Not
      // awaited by close(): a handshake on a closed transport may never settle.)
      void work.then((session) => this.endSession(session, true)).catch(() => undefined);
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      this.abortConnect = undefined;
    }
  }

  /**
   * Connect in the config's era. `auto` reuses the server's remembered
   * verdict (zero probe round trips); without one it probes once and
   * remembers the outcome. A stdio server that exits on the probe (it ends
   * the session on any unknown pre-initialize request) is legacy: started
   * again once, as legacy, and remembered, so the next run spawns it once.
   */
  private async connectByConfig(
    config: ServerConfig,
    track: (transport: Transport) => Transport,
    cancelled: () => boolean,
  ): Promise<Session> {
    const mode = config.protocol ?? "auto";
    try {
      if (this.injected) return await this.handshake(track(this.injected), config.transport, mode);
      if (mode !== "auto") return await this.connectTransport(config, track, cancelled, mode);
      return await this.connectAuto(config, track, cancelled);
    } catch (error) {
      if (isModernOnlyRefusal(error)) throw this.eraMismatch(mode, error);
      throw error;
    }
  }

  private async connectAuto(
    config: ServerConfig,
    track: (transport: Transport) => Transport,
    cancelled: () => boolean,
  ): Promise<Session> {
    const store = this.options.eraVerdicts ?? processEraVerdicts;
    const identity = serverIdentity(config);
    const verdict = await loadVerdict(store, identity);
    if (verdict) {
      try {
        return await this.connectTransport(config, track, cancelled, "auto", priorOf(verdict));
      } catch (error) {
        // A stale verdict must not stick, but a legacy one outlives a server that merely
        // dies at once: probing it again would only spawn it twice.
        const keep = verdict.kind === "legacy" && this.diedOnItsOwn(config) && !isModernOnlyRefusal(error);
        if (!keep) await store.forget(identity).catch(() => undefined);
        // It moved to the 2026 era since: negotiate afresh now rather than fail this run.
        if (!isModernOnlyRefusal(error) || cancelled()) throw error;
      }
    }
    const { session, verdict: negotiated } = await this.negotiateEra(config, track, cancelled, store, identity);
    await saveVerdict(store, identity, negotiated);
    return session;
  }

  /**
   * The first connect in `auto`: probe, fall back. Two servers need a second
   * process: one that exits on the unknown probe (rmcp-style; retried as
   * legacy) and a modern-only one whose probe went unanswered because it
   * started slowly (`npx` installing it), so `initialize` was refused (retried
   * in the era it named). One that dies whatever it is sent is remembered as
   * legacy: the next run starts it once.
   */
  private async negotiateEra(
    config: ServerConfig,
    track: (transport: Transport) => Transport,
    cancelled: () => boolean,
    store: EraVerdictStore,
    identity: string,
  ): Promise<{ session: Session; verdict: EraVerdict | undefined }> {
    const negotiated = (session: Session, reason: LegacyVerdictReason) => ({
      session,
      verdict: verdictOf(session.client, reason),
    });
    const probeStarted = Date.now();
    try {
      const session = await this.connectTransport(config, track, cancelled, "auto");
      return negotiated(session, probeOutcome(Date.now() - probeStarted, this.probeMs()));
    } catch (error) {
      if (isModernOnlyRefusal(error) && !cancelled()) {
        return negotiated(await this.connectTransport(config, track, cancelled, "2026-07-28"), "answered");
      }
      if (!this.diedOnProbe(config, error) || cancelled()) throw error;
      const first = this.lastStdio;
      const restoreTail = this.stderr.reset();
      try {
        return negotiated(await this.connectTransport(config, track, cancelled, "auto", { kind: "legacy" }), "exited");
      } catch (retryError) {
        // It just dies: report the first attempt, as without the retry.
        restoreTail();
        this.lastStdio = first;
        if (this.diedOnItsOwn(config) && !isModernOnlyRefusal(retryError)) {
          await saveVerdict(store, identity, { kind: "legacy", storedAt: Date.now(), reason: "died" });
        }
        throw error;
      }
    }
  }

  /** The stdio server of the latest attempt exited before it was ready, without being told to. */
  private diedOnItsOwn(config: ServerConfig): boolean {
    return config.transport === "stdio" && this.lastStdio?.exitInfo !== undefined && !this.lastStdio.endedByHost;
  }

  /** The stdio server of this attempt exited during the `server/discover` probe. */
  private diedOnProbe(config: ServerConfig, error: unknown): boolean {
    return (
      this.diedOnItsOwn(config) &&
      error instanceof SdkError &&
      (error.code === SdkErrorCode.EraNegotiationFailed || error.code === SdkErrorCode.ConnectionClosed)
    );
  }

  private eraMismatch(mode: ProtocolMode, error: unknown): ProtocolFault {
    const supported = (refusedRevisions(error) ?? []).join(", ");
    const why =
      mode === "legacy"
        ? `its config pins protocol "legacy" (the 2025 initialize handshake); set protocol to "auto" or "2026-07-28"`
        : `the client offered only 2025-era revisions`;
    return protocolFault(
      "protocol",
      `server "${this.config.id}" speaks only MCP ${supported} (the stateless 2026 era), but ${why}`,
      error,
    );
  }

  private async connectTransport(
    config: ServerConfig,
    track: (transport: Transport) => Transport,
    cancelled: () => boolean,
    mode: ProtocolMode,
    prior?: PriorDiscovery,
  ): Promise<Session> {
    if (cancelled()) throw new Error("closed while connecting");
    switch (config.transport) {
      case "stdio": {
        const transport = new ProcessStdioTransport({
          command: config.command,
          args: config.args,
          env: config.env,
          cwd: config.cwd,
          maxMessageBytes: this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
          closeGraceMs: this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
          // Only the latest attempt's process speaks in the tail (an era retry starts afresh).
          onStderr: (chunk) => {
            if (this.lastStdio === transport) this.stderr.push(chunk);
          },
          onSpawn: (pid) => {
            this.pidValue = pid;
          },
        });
        this.lastStdio = transport;
        const gone = transport.whenClosed().then(() => {
          throw new SdkError(SdkErrorCode.ConnectionClosed, "the server closed the connection before it was ready");
        });
        gone.catch(() => undefined);
        return Promise.race([this.handshake(track(transport), "stdio", mode, prior), gone]);
      }
      case "sse":
        return this.connectHttp(config, "sse", track, "legacy");
      case "streamable-http": {
        try {
          return await this.connectHttp(config, "streamable-http", track, mode, prior);
        } catch (error) {
          // A 4xx whose body refuses our revision is a modern-only server, not an SSE one.
          if (!isLegacyServerHint(error) || isModernOnlyRefusal(error) || cancelled()) throw error;
          try {
            return await this.connectHttp(config, "sse", track, "legacy");
          } catch (fallbackError) {
            throw new Error(
              `Streamable HTTP initialize failed (${errorText(error)}); legacy SSE fallback failed too (${errorText(fallbackError)})`,
              { cause: fallbackError },
            );
          }
        }
      }
    }
  }

  private http(): HttpFetch {
    this.httpFetch ??= createHttpFetch({
      bodyTimeoutMs: this.options.httpBodyTimeoutMs ?? 0,
      maxResponseBytes: this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      onTooLarge: (error) => this.onResponseTooLarge(error),
    });
    return this.httpFetch;
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

  private streamableTransport(url: string, headers: Readonly<Record<string, string>> | undefined) {
    return createStreamableTransport(url, headers, this.http().fetch, this.oauth);
  }

  private sseTransport(url: string, headers: Readonly<Record<string, string>> | undefined) {
    return createSseTransport(url, headers, this.http().fetch, this.oauth);
  }

  /**
   * Connect over HTTP with the stored sign-in (read afresh, so a sign-in made
   * meanwhile by another process counts). When the user has just signed in
   * through the `authorize` step, the code is redeemed and the connect tried
   * once more.
   */
  private async connectHttp(
    config: HttpServerConfig,
    kind: "sse" | "streamable-http",
    track: (transport: Transport) => Transport,
    mode: ProtocolMode,
    prior?: PriorDiscovery,
  ): Promise<Session> {
    await this.loadSignIn(config);
    const open = () =>
      kind === "sse"
        ? this.sseTransport(config.url, config.headers)
        : this.streamableTransport(config.url, config.headers);
    const transport = open();
    try {
      return await this.handshake(track(transport), kind, mode, prior);
    } catch (error) {
      if (!this.oauth || authFailure(error) === undefined || !(await redeemSignIn(transport, this.oauth))) throw error;
      return this.handshake(track(open()), kind, mode, prior);
    }
  }

  /** The OAuth provider for this server's stored sign-in, when the embedder keeps sign-ins. */
  private async loadSignIn(config: HttpServerConfig): Promise<void> {
    const oauth = this.options.oauth;
    if (!oauth) return;
    this.oauth = await StoredOAuthProvider.load(config, {
      store: oauth.store,
      clientName: oauth.clientName ?? this.clientInfo.name,
      fetch: this.http().fetch,
      ...(oauth.authorize ? { authorize: oauth.authorize } : {}),
      ...(oauth.redirectUrl ? { redirectUrl: oauth.redirectUrl } : {}),
      ...(oauth.refreshSkewMs === undefined ? {} : { refreshSkewMs: oauth.refreshSkewMs }),
    });
  }

  /** Connect `transport` in `mode` (or from a `prior` verdict) and wire the session's notifications. */
  private async handshake(
    transport: Transport,
    kind: TransportKind,
    mode: ProtocolMode,
    prior?: PriorDiscovery,
  ): Promise<Session> {
    const client = this.newClient(mode);
    registerHostHandlers(client, this.config.id, this.options.host, this.router);
    this.relay.attach(client, () => this.session === session && !session.retired);
    const session: Session = { client, transport, kind, era: "legacy", retired: false };
    client.onerror = () => undefined;
    client.onclose = () => this.onSessionClosed(session);
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      if (this.session === session && !session.retired) void this.refreshTools().catch(() => undefined);
    });
    client.setNotificationHandler("notifications/resources/list_changed", () => this.emitCatalog(session, "resources"));
    client.setNotificationHandler("notifications/prompts/list_changed", () => this.emitCatalog(session, "prompts"));
    const sanitized = sanitizeToolLists(
      transport,
      () => client.getProtocolEra() === "modern",
      (issues) => this.droppedTools.push(...issues),
    );
    // Outside any call's scope: what the connection spawns or opens must never inherit a call's client.
    const scoped = this.options.host
      ? callScopedTransport(sanitized, () => client.getProtocolEra() === "modern")
      : sanitized;
    await outsideCalls(() =>
      client.connect(scoped, { timeout: this.timeouts.startupMs + 5_000, ...(prior ? { prior } : {}) }),
    );
    if (client.getProtocolEra() === "modern") {
      session.era = "2026-07-28";
      session.subscription = await outsideCalls(() => this.listen(client));
    }
    return session;
  }

  /**
   * In the 2026 era list changes arrive only on a `subscriptions/listen`
   * stream; open one for the lists the server says change. A server that
   * refuses it still works, without change following.
   */
  private async listen(client: Client): Promise<McpSubscription | undefined> {
    const capabilities = client.getServerCapabilities();
    const filter = {
      ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(capabilities?.resources?.subscribe && this.relay.resourceSubscriptions.length > 0
        ? { resourceSubscriptions: [...this.relay.resourceSubscriptions] }
        : {}),
    };
    if (Object.keys(filter).length === 0) return undefined;
    try {
      return await client.listen(filter, { timeout: this.timeouts.startupMs });
    } catch {
      return undefined;
    }
  }

  /** A new 2026-era listen stream for the current filter, then the old one closed (no gap in updates). */
  private async relisten(): Promise<void> {
    const session = this.readySession("change resource subscriptions");
    const next = await outsideCalls(() => this.listen(session.client));
    const previous = session.subscription;
    session.subscription = next;
    await previous?.close().catch(() => undefined);
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
      this.scheduleReconnect(policy.maxAttempts, policy.initialDelayMs, policy.maxDelayMs, fault);
      return;
    }
    this.enterFault(fault);
  }

  /** Reconnect with exponential backoff; `open()` meanwhile waits on the outcome. */
  private scheduleReconnect(
    maxAttempts: number,
    initialDelayMs: number,
    maxDelayMs: number,
    lost: ProtocolFault,
  ): void {
    let timer: NodeJS.Timeout | undefined;
    let settle!: { resolve: () => void; reject: (fault: ProtocolFault) => void };
    const outcome = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    outcome.catch(() => undefined);
    this.opening = outcome;
    const finish = (fault?: ProtocolFault) => {
      this.cancelReconnect = undefined;
      this.opening = undefined;
      if (fault) settle.reject(fault);
      else settle.resolve();
    };
    this.cancelReconnect = () => {
      if (timer) clearTimeout(timer);
      finish(protocolFault("not-connected", `server "${this.config.id}" was closed while reconnecting`, lost));
    };
    const attempt = (left: number, backoff: number) => {
      timer = setTimeout(() => {
        timer = undefined;
        this.connect().then(
          (session) => {
            if (this.closing) {
              void this.endSession(session, true);
              return;
            }
            this.faultValue = undefined;
            this.adopt(session);
            finish();
            if (this.toolsCache) void this.refreshTools().catch(() => undefined);
          },
          (error: unknown) => {
            if (this.closing) return;
            const fault = this.toFault("connect", error);
            if (left > 1) {
              attempt(left - 1, Math.min(backoff * 2, maxDelayMs));
              return;
            }
            this.enterFault(fault);
            finish(fault);
          },
        );
      }, backoff);
      timer.unref();
    };
    attempt(maxAttempts, initialDelayMs);
  }

  /**
   * A Streamable HTTP server answered 404 for our session: it restarted or
   * expired us. Start a fresh session (once, shared by concurrent callers).
   */
  private reinitialize(stale: Session): Promise<Session> {
    if (this.session !== stale) return Promise.resolve(this.session ?? stale);
    this.reiniting ??= (async () => {
      const config = this.config;
      if (config.transport !== "streamable-http") throw new Error("only Streamable HTTP sessions re-initialize");
      stale.retired = true;
      const ms = this.timeouts.startupMs;
      const transport = this.streamableTransport(config.url, config.headers);
      let timer: NodeJS.Timeout | undefined;
      try {
        const session = await Promise.race([
          this.handshake(transport, "streamable-http", "legacy"),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              void transport.close().catch(() => undefined);
              reject(new DeadlineExceeded(ms, false));
            }, ms);
          }),
        ]);
        this.adopt(session);
        void this.endSession(stale, false);
        if (this.toolsCache) void this.refreshTools().catch(() => undefined);
        return session;
      } catch (error) {
        const fault = this.toFault("connect", error);
        this.enterFault(fault);
        throw fault;
      } finally {
        if (timer) clearTimeout(timer);
      }
    })().finally(() => {
      this.reiniting = undefined;
    });
    return this.reiniting;
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
    if (this.oauth && authFailure(error) !== undefined) {
      // A step-up the user just authorized in the browser: redeem it and try once more.
      if (!(await redeemSignIn(session.transport, this.oauth).catch(() => false)))
        throw this.toFault(site, error, session);
      try {
        return await op(session);
      } catch (retryError) {
        throw this.toFault(site, retryError, session);
      }
    }
    if (!isSessionGone(error) || session.kind !== "streamable-http" || session.era !== "legacy")
      throw this.toFault(site, error, session);
    try {
      return await op(await this.reinitialize(session));
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
    const stdio = site === "connect" || !(live instanceof ProcessStdioTransport) ? this.lastStdio : live;
    return faultAt(site, this.config.id, error, {
      spawned: this.config.transport === "stdio" && !this.injected,
      exit: stdio?.exitInfo,
      garbage: stdio?.garbage,
      pipeLoss: stdio?.pipeLoss,
      stderr: this.stderr.tail(),
      signInHint: this.options.oauth?.signInHint?.(this.config.id),
    });
  }

  /** The stdio transport of the latest connect attempt, for its exit code and stdout garbage. */
  private lastStdio: ProcessStdioTransport | undefined;

  // ---- tools ---------------------------------------------------------------

  /** Every tool the server offers (all pages), qualified and normalized; cached. */
  listTools(): Promise<readonly RemoteTool[]> {
    const cached = this.phaseValue === "ready" ? this.toolsCache : undefined;
    if (!cached) return this.refreshTools();
    if (!isExpired(this.toolsExpireAt)) return Promise.resolve(cached);
    // Past the server's `ttlMs`: list again; if that fails, the list we have is still the best known.
    return this.refreshTools().catch(() => cached);
  }

  /**
   * Re-read the whole tool list now. Refreshes coalesce: one asked for while
   * another runs gets that one's result, and one more pass follows it (its
   * changes reach `onToolsChanged` subscribers). So a server announcing a
   * change right after `initialize` does not hold up the first listing.
   */
  refreshTools(): Promise<readonly RemoteTool[]> {
    if (this.listing) {
      this.listAgain = true;
      return this.listing;
    }
    if (this.phaseValue !== "ready" || !this.session) return Promise.reject(this.notConnected("list tools"));
    const pass = this.fetchTools().then((tools) => {
      this.applyTools(tools);
      return tools;
    });
    this.listing = pass.finally(() => {
      this.listing = undefined;
      if (this.listAgain) {
        this.listAgain = false;
        if (this.phaseValue === "ready") void this.refreshTools().catch(() => undefined);
      }
    });
    this.listing.catch(() => undefined);
    return this.listing;
  }

  private async fetchTools(): Promise<readonly RemoteTool[]> {
    // Not `client.listTools()`: it validates the whole page with the SDK's strict
    // schema and compiles every `outputSchema`, so one bad tool throws the whole
    // list away. We read pages as arrays and check each tool on its own.
    let raw: unknown[];
    this.droppedTools = [];
    const requestedAt = Date.now();
    let firstPage: unknown;
    try {
      raw = await this.onSession("list tools", "list", (session) =>
        this.allPages(session, "tools/list", "tools", undefined, (page) => (firstPage ??= page)),
      );
    } catch (error) {
      this.listFaultValue = isProtocolFault(error) ? error : this.toFault("list", error);
      throw this.listFaultValue;
    }
    this.listFaultValue = undefined;
    this.toolsExpireAt = this.session?.era === "2026-07-28" ? listExpiry(firstPage, requestedAt) : undefined;
    this.paramHeadersByTool = this.headerDeclarations(raw);
    const { tools, issues } = buildRemoteTools(this.config.id, raw);
    this.listIssuesValue = [...this.droppedTools, ...issues];
    return tools;
  }

  private headerDeclarations(raw: readonly unknown[]): Map<string, readonly ParamHeader[]> {
    const map = new Map<string, readonly ParamHeader[]>();
    if (this.session?.era !== "2026-07-28" || this.session.kind !== "streamable-http") return map;
    for (const item of raw) {
      if (typeof item !== "object" || item === null) continue;
      const { name, inputSchema } = item as { name?: unknown; inputSchema?: unknown };
      const declared = paramHeaders(inputSchema);
      if (typeof name === "string" && declared.length > 0) map.set(name, declared);
    }
    return map;
  }

  private applyTools(tools: readonly RemoteTool[]): void {
    const change: ToolsChange = diffTools(this.toolsCache ?? [], tools);
    const first = this.toolsCache === undefined;
    this.toolsCache = tools;
    if (first || isEmptyChange(change)) return;
    for (const listener of this.toolListeners) {
      try {
        listener(change);
      } catch {
        // A listener's bug is not the server's fault.
      }
    }
  }

  /** Every item of a paginated list; a repeated cursor ends it as a protocol error. */
  private async allPages(
    session: Session,
    method: string,
    key: string,
    signal?: AbortSignal,
    onPage?: (result: unknown) => void,
  ): Promise<unknown[]> {
    const items: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await requestWithDeadline<unknown>(
        session.client,
        { method, ...(cursor === undefined ? {} : { params: { cursor } }) },
        AnyResultSchema,
        { timeoutMs: this.timeouts.listMs, signal },
      );
      onPage?.(result);
      const { items: pageItems, nextCursor } = readPage(result, method, key);
      items.push(...pageItems);
      if (nextCursor === undefined) return items;
      if (seen.has(nextCursor)) throw new Error(`${method} returned cursor ${JSON.stringify(nextCursor)} twice`);
      seen.add(nextCursor);
      cursor = nextCursor;
    }
    throw new Error(`${method} did not end after ${MAX_PAGES} pages`);
  }

  /**
   * Call a tool by its server-side name; the result is the server's, untouched.
   * The server's requests for input during the call go to `options.peer`
   * (see `peer-routing.ts`); in the 2026 era the call also declares that
   * client's capabilities, so the server itself refuses what it cannot answer.
   */
  invoke(name: string, args: unknown, options: InvokeOptions = {}): Promise<RemoteCallResult> {
    const request = {
      method: "tools/call",
      params: { name, arguments: args === undefined || args === null ? {} : (args as Record<string, unknown>) },
    };
    const declared = this.paramHeadersByTool.get(name);
    const deadline = {
      timeoutMs: options.timeoutMs ?? this.timeouts.callMs,
      totalMs: Math.max(this.timeouts.callTotalMs, options.timeoutMs ?? 0),
      signal: options.signal,
      onProgress: options.onProgress,
      headers: declared ? paramHeaderValues(declared, request.params.arguments) : undefined,
    };
    const peer = options.peer;
    return this.router.during(peer, () =>
      this.onSession(
        () => `call "${name}"`,
        "call",
        (session) =>
          requestWithDeadline<unknown>(
            session.client,
            session.era === "2026-07-28" ? this.withModernMeta(request, peer) : request,
            AnyResultSchema,
            deadline,
          ).then(readCallResult),
      ),
    );
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
   * A 2026-era call carries what the 2025 era set per connection: its
   * client's capabilities (`peer`'s) and the log level (`setLogLevel`).
   */
  private withModernMeta<R extends { params: Record<string, unknown> }>(
    request: R,
    peer: ClientHostHooks | undefined,
  ): R {
    const level = this.relay.logLevel;
    if (!peer && !level) return request;
    const meta = {
      ...(peer ? { [CLIENT_CAPABILITIES_META_KEY]: callCapabilities(peer, this.options.host) } : {}),
      ...(level ? { [LOG_LEVEL_META_KEY]: level } : {}),
    };
    return { ...request, params: { ...request.params, _meta: meta } };
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
    const raw = await this.onSession(what, "list", (session) => this.allPages(session, method, key, signal));
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
    return this.router.during(options.peer, () =>
      this.onSession(what, "list", (session) =>
        requestWithDeadline<JsonObject>(
          session.client,
          session.era === "2026-07-28" ? this.withModernMeta(request, options.peer) : request,
          AnyResultSchema,
          { timeoutMs: this.timeouts.callMs, signal: options.signal },
        ),
      ),
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
