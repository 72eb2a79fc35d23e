/**
 * What an embedder can tune per endpoint: the types only, so a package that
 * hands options through to `@indus/endpoint` (fleet, a host) names them from
 * the contract. The defaults and their resolution live in the endpoint.
 */
import type { ClientHostHooks } from "./client-host";
import type { EraVerdictStore } from "./protocol-era";
import type { TokenStore } from "./token-store";

/**
 * Who the client says it is in `initialize`. Servers log and sometimes gate on
 * `clientInfo`, so it carries the real package name and version.
 */
export interface ClientIdentity {
  readonly name: string;
  readonly version: string;
}

/** Shows the user an authorization URL and resolves with the redirect's query (`code`, `state`, `iss`). */
export type AuthorizationStep = (authorizationUrl: URL) => Promise<URLSearchParams>;

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
  /**
   * How long a stdio server in `auto` gets to answer the `server/discover`
   * probe before its silence counts as "legacy" (many 2025 servers never
   * answer a request before `initialize`). Only a server's first connect pays
   * it; the verdict is remembered. Claude Code waits about 4 s. A modern-only
   * server that was still starting (`npx` installing it) refuses the
   * `initialize` that follows, and is then connected in its own era.
   */
  readonly eraProbeMs: number;
}

/**
 * OAuth 2.1 for HTTP servers that ask for it. Without an `authorize` step (an
 * ordinary session) the endpoint uses and refreshes a stored sign-in, and a
 * server that needs a new one faults `unauthorized`; with one (signing in) it
 * runs the authorization flow through that step.
 */
export interface EndpointOAuthOptions {
  /** Where each server's credentials live between runs. */
  readonly store: TokenStore;
  /** `client_name` when the client registers itself with an authorization server. */
  readonly clientName?: string;
  /** Shows the user an authorization URL and resolves with the redirect's query (`code`, `state`, `iss`). */
  readonly authorize?: AuthorizationStep;
  /** The redirect URL `authorize` listens on (loopback). */
  readonly redirectUrl?: string;
  /** What an `unauthorized` fault tells the user to do, e.g. the command that signs in. */
  readonly signInHint?: (server: string) => string;
  /** Refresh when less than this is left of an access token (capped at half its lifetime); default 60 s. */
  readonly refreshSkewMs?: number;
}

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
  /**
   * Deepest nesting accepted in a server's result or request (default 128):
   * deeper parts are dropped where that keeps the rest (a listed item, a
   * `_meta`, a capability), else the result is refused with an error naming
   * the path.
   */
  readonly maxMessageDepth?: number;
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
  /**
   * Sign-in for HTTP servers that require OAuth; without it a 401 is an
   * `unauthorized` fault. Servers configured with the client_credentials
   * grant need none of it: they get their tokens when they connect.
   */
  readonly oauth?: EndpointOAuthOptions;
  /** Where `oauth.clientSecretEnv` and `oauth.privateKeyEnv` are read when connecting; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}
