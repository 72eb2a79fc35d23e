/**
 * Opening sessions for one server config: the transport it names (our own
 * stdio process transport, Streamable HTTP with its legacy SSE fallback),
 * the stored sign-in of an HTTP server, the era negotiation of `auto`
 * (`era-negotiation.ts`) and the handshake, all within the startup deadline
 * (`startup-deadline.ts`). Owns what a connect leaves behind: the latest
 * stdio process (for fault details), the HTTP fetch and the OAuth provider.
 */
import {
  SdkError,
  SdkErrorCode,
  type OAuthClientProvider,
  type PriorDiscovery,
  type Transport,
} from "@modelcontextprotocol/client";
import {
  SERVER_ID_PATTERN,
  parseServerConfig,
  protocolFault,
  type HttpServerConfig,
  type ProtocolMode,
  type ServerConfig,
  type TransportKind,
} from "@indus/contract";
import type { ClientIdentity } from "../client-identity";
import { watchCallAnswers, type CallAnswerListener } from "../relay/call-answers";
import { callScopedTransport, outsideCalls } from "../relay/call-context";
import {
  DEFAULT_CLOSE_GRACE_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_MESSAGE_DEPTH,
  type EndpointOptions,
  type EndpointTimeouts,
} from "../endpoint-options";
import { isModernOnlyRefusal } from "../era/era-mismatch";
import { connectAuto, eraMismatch, type EraAttempts } from "../era/era-negotiation";
import { processEraVerdicts, serverIdentity } from "../era/era-verdicts";
import { authFailure, redeemSignIn } from "../auth/http-auth";
import { createHttpFetch, type HttpFetch } from "../http/http-fetch";
import { createSseTransport, createStreamableTransport, isLegacyServerHint } from "../http/http-transports";
import { ClientCredentialsGrant } from "../auth/client-credentials-provider";
import { readClientProof, readClientSecret, usesClientCredentials } from "../auth/client-credentials";
import { StoredOAuthProvider } from "../auth/oauth-provider";
import { carryTaskResults } from "../tools/task-results";
import { ProcessStdioTransport } from "../stdio/process-stdio-transport";
import type { ResponseTooLargeError } from "../http/response-cap";
import type { Session } from "../session";
import { listen, newClient, probeMs, type SessionClient } from "./session-client";
import { connectWithin, type TrackTransport } from "./startup-deadline";
import { RawCallTap } from "../tools/raw-call-tap";
import type { StderrTail } from "../stdio/stderr-tail";
import { guardInbound } from "../inbound/inbound-guard";

/** What the endpoint does with each new session and what its transports report. */
export interface OpenerPort {
  /** Register the session's handlers (host hooks, notifications, close) before it connects. */
  wire(session: Session): void;
  /** What the inbound guard dropped or repaired in a message of `method`, and why. */
  dropped(method: string, issues: readonly string[]): void;
  /** The resources subscribed to, for a 2026-era listen stream. */
  resourceSubscriptions(): readonly string[];
  /** An HTTP response over the size cap (see `response-cap.ts`). */
  tooLarge(error: ResponseTooLargeError): void;
}

/** Everything an opener needs to know about its server. */
export interface OpenerSetup {
  readonly config: ServerConfig;
  /** A transport that replaces the config's (in-process use, tests). */
  readonly injected: Transport | undefined;
  readonly options: EndpointOptions;
  readonly timeouts: EndpointTimeouts;
  readonly clientInfo: ClientIdentity;
  readonly stderr: StderrTail;
  /** Told when a call's answer is read (see `call-answers.ts`). */
  readonly router: CallAnswerListener;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One connect attempt's era: the mode asked for, and what an earlier probe of this server found. */
interface EraAttempt {
  readonly mode: ProtocolMode;
  readonly prior?: PriorDiscovery | undefined;
}

export class SessionOpener {
  /** The stdio transport of the latest connect attempt, for its exit code and stdout garbage. */
  lastStdio: ProcessStdioTransport | undefined;
  /** For stdio servers: the spawned child's pid (and process group id). */
  pid: number | undefined;
  /** The stored sign-in of an HTTP server, when the embedder keeps sign-ins (`options.oauth`). */
  oauth: StoredOAuthProvider | undefined;
  /** What signs the transports' requests: the stored sign-in, or a client_credentials grant. */
  private authProvider: OAuthClientProvider | undefined;
  private httpFetch: HttpFetch | undefined;
  /** Cancels the connect in progress (closes its transport). */
  private abortConnect: (() => void) | undefined;
  /** Shutdowns of failed connect attempts; `drain()` waits for them. */
  private readonly cleanups = new Set<Promise<unknown>>();

  constructor(
    private readonly setup: OpenerSetup,
    private readonly port: OpenerPort,
  ) {}

  /** Cancel the connect in progress, if any. */
  abort(): void {
    this.abortConnect?.();
  }

  /** Wait for failed attempts' shutdowns, then release the HTTP connection pool. */
  async drain(): Promise<void> {
    await Promise.all(this.cleanups);
    await this.httpFetch?.close();
  }

  /** Connect and handshake within the startup deadline. */
  async open(): Promise<Session> {
    const { config: given, timeouts } = this.setup;
    if (!SERVER_ID_PATTERN.test(given.id)) {
      throw protocolFault("protocol", `server id "${given.id}" is invalid: it must match ${SERVER_ID_PATTERN.source}`);
    }
    // Configs built by hand skip the schema; check them here so a bad one faults, never crashes.
    const parsed = parseServerConfig(given);
    if (!parsed.ok) {
      const issues = parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      throw protocolFault("protocol", `server "${given.id}" has an invalid config: ${issues}`);
    }
    const config = parsed.value;
    return connectWithin(timeouts.startupMs, (track, cancelled) => this.connectByConfig(config, track, cancelled), {
      setAbort: (abort) => {
        this.abortConnect = abort;
      },
      cleanup: (done) => this.cleanups.add(done),
    });
  }

  /** Connect in the config's era (see `era-negotiation.ts` for `auto`). */
  private async connectByConfig(
    config: ServerConfig,
    track: TrackTransport,
    cancelled: () => boolean,
  ): Promise<Session> {
    const mode = config.protocol ?? "auto";
    try {
      if (this.setup.injected) return await this.handshake(track(this.setup.injected), config.transport, mode);
      if (mode !== "auto") return await this.connectTransport(config, track, cancelled, { mode });
      const store = this.setup.options.eraVerdicts ?? processEraVerdicts;
      return await connectAuto(this.eraAttempts(config, track, cancelled), {
        store,
        identity: serverIdentity(config),
      });
    } catch (error) {
      if (isModernOnlyRefusal(error)) throw eraMismatch(config.id, mode, error);
      throw error;
    }
  }

  private eraAttempts(config: ServerConfig, track: TrackTransport, cancelled: () => boolean): EraAttempts {
    return {
      attempt: (mode, prior) => this.connectTransport(config, track, cancelled, { mode, prior }),
      diedOnItsOwn: () => this.diedOnItsOwn(config),
      answeredProbeLate: () => config.transport === "stdio" && this.lastStdio?.answeredProbeLate === true,
      beginRetry: () => {
        const first = this.lastStdio;
        const restoreTail = this.setup.stderr.reset();
        return () => {
          restoreTail();
          this.lastStdio = first;
        };
      },
      cancelled,
      probeMs: probeMs(this.setup.timeouts),
      overHttp: config.transport !== "stdio",
    };
  }

  /** The stdio server of the latest attempt exited before it was ready, without being told to. */
  private diedOnItsOwn(config: ServerConfig): boolean {
    return config.transport === "stdio" && this.lastStdio?.exitInfo !== undefined && !this.lastStdio.endedByHost;
  }

  private async connectTransport(
    config: ServerConfig,
    track: TrackTransport,
    cancelled: () => boolean,
    { mode, prior }: EraAttempt,
  ): Promise<Session> {
    if (cancelled()) throw new Error("closed while connecting");
    switch (config.transport) {
      case "stdio":
        return this.connectStdio(config, track, mode, prior);
      case "sse":
        return this.connectHttp(config, "sse", track, { mode: "legacy" });
      case "streamable-http": {
        try {
          return await this.connectHttp(config, "streamable-http", track, { mode, prior });
        } catch (error) {
          // A 4xx whose body refuses our revision is a modern-only server, not an SSE one.
          if (!isLegacyServerHint(error) || isModernOnlyRefusal(error) || cancelled()) throw error;
          try {
            return await this.connectHttp(config, "sse", track, { mode: "legacy" });
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

  private connectStdio(
    config: Extract<ServerConfig, { transport: "stdio" }>,
    track: TrackTransport,
    mode: ProtocolMode,
    prior?: PriorDiscovery,
  ): Promise<Session> {
    const { options, stderr } = this.setup;
    const transport = new ProcessStdioTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      inheritEnv: { inherit: config.inheritEnv, names: config.envVars },
      cwd: config.cwd,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      closeGraceMs: options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
      // Only the latest attempt's process speaks in the tail (an era retry starts afresh).
      onStderr: (chunk) => {
        if (this.lastStdio === transport) stderr.push(chunk);
      },
      onSpawn: (pid) => {
        this.pid = pid;
      },
    });
    this.lastStdio = transport;
    const gone = transport.whenClosed().then(() => {
      throw new SdkError(SdkErrorCode.ConnectionClosed, "the server closed the connection before it was ready");
    });
    gone.catch(() => undefined);
    return Promise.race([this.handshake(track(transport), "stdio", mode, prior), gone]);
  }

  private http(): HttpFetch {
    this.httpFetch ??= createHttpFetch({
      bodyTimeoutMs: this.setup.options.httpBodyTimeoutMs ?? 0,
      maxResponseBytes: this.setup.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      onTooLarge: (error) => this.port.tooLarge(error),
    });
    return this.httpFetch;
  }

  /** A Streamable HTTP transport with this server's fetch and sign-in. */
  streamableTransport(url: string, headers: Readonly<Record<string, string>> | undefined): Transport {
    return createStreamableTransport(url, headers, this.http().fetch, this.authProvider);
  }

  private sseTransport(url: string, headers: Readonly<Record<string, string>> | undefined): Transport {
    return createSseTransport(url, headers, this.http().fetch, this.authProvider);
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
    track: TrackTransport,
    { mode, prior }: EraAttempt,
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

  /**
   * The OAuth provider for this server: a client_credentials grant when the
   * config asks for one (its secret or key read now), else the stored sign-in
   * when the embedder keeps sign-ins.
   */
  private async loadSignIn(config: HttpServerConfig): Promise<void> {
    const { options } = this.setup;
    const env = options.env ?? process.env;
    const clientName = options.oauth?.clientName ?? this.setup.clientInfo.name;
    if (config.oauth && usesClientCredentials(config)) {
      this.authProvider = new ClientCredentialsGrant(config, {
        proof: await readClientProof(config.oauth, env),
        clientName,
        fetch: this.http().fetch,
        ...(options.oauth?.refreshSkewMs === undefined ? {} : { refreshSkewMs: options.oauth.refreshSkewMs }),
      });
      return;
    }
    const oauth = options.oauth;
    if (!oauth) return;
    // A pre-registered confidential client may name its secret's variable; it is read here, never stored.
    const secret = config.oauth ? readClientSecret(config.oauth, env) : undefined;
    const withSecret =
      secret === undefined || !config.oauth ? config : { ...config, oauth: { ...config.oauth, clientSecret: secret } };
    this.oauth = await StoredOAuthProvider.load(withSecret, {
      store: oauth.store,
      clientName,
      fetch: this.http().fetch,
      ...(oauth.authorize ? { authorize: oauth.authorize } : {}),
      ...(oauth.redirectUrl ? { redirectUrl: oauth.redirectUrl } : {}),
      ...(oauth.refreshSkewMs === undefined ? {} : { refreshSkewMs: oauth.refreshSkewMs }),
    });
    this.authProvider = this.oauth;
  }

  /** Connect `transport` in `mode` (or from a `prior` verdict) and wire the session's notifications. */
  async handshake(
    transport: Transport,
    kind: TransportKind,
    mode: ProtocolMode,
    prior?: PriorDiscovery,
  ): Promise<Session> {
    const { options, timeouts } = this.setup;
    const client = newClient(mode, this.setup.clientInfo, options.host, timeouts);
    const session: Session = { client, transport, kind, era: "legacy", retired: false };
    this.port.wire(session);
    const modern = () => client.getProtocolEra() === "modern";
    const guarded = guardInbound(transport, {
      maxDepth: options.maxMessageDepth ?? DEFAULT_MAX_MESSAGE_DEPTH,
      modern,
      onIssues: (method, issues) => this.port.dropped(method, issues),
    });
    // A stdio server's raw calls are caught past the guard, before the SDK client.
    if (kind === "stdio") session.rawCalls = rawCallsOn(transport, guarded, client);
    const sanitized = carryTaskResults(session.rawCalls?.transport ?? guarded, modern);
    // Outside any call's scope: what the connection spawns or opens must never inherit a call's client.
    const scoped = options.host
      ? watchCallAnswers(callScopedTransport(sanitized, modern), this.setup.router)
      : sanitized;
    await outsideCalls(() =>
      client.connect(scoped, { timeout: timeouts.startupMs + 5_000, ...(prior ? { prior } : {}) }),
    );
    if (client.getProtocolEra() === "modern") {
      session.era = "2026-07-28";
      if (session.rawCalls) session.rawCalls.envelope = client.rawCallEnvelope();
      this.listenInBackground(session);
    }
    return session;
  }

  /**
   * Open the session's listen stream without holding the connect: it is
   * optional (list changes only), so a server that never acknowledges it is
   * connected all the same, with the reason noted.
   */
  private listenInBackground(session: Session): void {
    const { client } = session;
    const ackMs = probeMs(this.setup.timeouts);
    void outsideCalls(() => listen(client, this.port.resourceSubscriptions(), ackMs)).then(
      ({ subscription, problem }) => {
        if (problem !== undefined && !session.retired) this.port.dropped("subscriptions/listen", [problem]);
        if (!subscription) return;
        if (session.retired || session.subscription) void subscription.close().catch(() => undefined);
        else session.subscription = subscription;
      },
    );
  }
}

/**
 * Raw calls on a stdio connection; when it ends, those still waiting fail as
 * the SDK client's own requests do (their fault then says why it ended).
 */
function rawCallsOn(transport: Transport, guarded: Transport, client: SessionClient): RawCallTap {
  const raw = new RawCallTap(guarded, (result) => client.readCallResult(result));
  const ended = (transport as { whenClosed?: () => Promise<void> }).whenClosed?.();
  void ended?.then(() => raw.lostAll(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")));
  return raw;
}
