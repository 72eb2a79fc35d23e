/**
 * The SDK's `OAuthClientProvider` over a contract `TokenStore`: everything
 * the SDK's `auth()` needs to persist (client registration, tokens, discovery
 * state) goes to the store as one record per server, bound to the server's
 * URL. The flow itself (discovery, registration, PKCE, `resource`, `iss`
 * checks, refresh, step-up) is the SDK's; this file only remembers.
 *
 * Two modes. With an `authorize` step (sign-in), the authorization URL is
 * handed to it and its answer is picked up by the caller (`takeAuthorization`).
 * Without one (an ordinary session), anything that would need the user ends in
 * `SignInRequired` instead of a registration or a browser.
 */
import { randomBytes } from "node:crypto";
import {
  type DpopSession,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { AuthorizationStep, HttpServerConfig, JsonObject, StoredCredentials, TokenStore } from "@indus/contract";
import { dpopSession } from "./dpop-key";
import { expiresSoon, singleRenewal } from "./token-renewal";

export type { AuthorizationStep } from "@indus/contract";

/** Thrown where continuing would need the user: no stored sign-in, or one that can no longer be refreshed. */
export class SignInRequired extends Error {
  override readonly name = "SignInRequired";
}

export interface OAuthProviderOptions {
  readonly store: TokenStore;
  /** Interactive sign-in; without it a missing or dead sign-in is `SignInRequired`. */
  readonly authorize?: AuthorizationStep;
  /** Where the authorization server sends the browser back (the sign-in's loopback listener). */
  readonly redirectUrl?: string;
  /** `client_name` when the client registers itself. */
  readonly clientName: string;
  /** The fetch the SDK's auth requests use (the endpoint's own). */
  readonly fetch?: FetchLike;
  /** Refresh when less than this is left of the access token (capped at half its lifetime); default 60 s. */
  readonly refreshSkewMs?: number;
  readonly now?: () => number;
}

const DEFAULT_REDIRECT = "http://127.0.0.1/callback";

export class StoredOAuthProvider implements OAuthClientProvider {
  private record: StoredCredentials;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private pending: Promise<URLSearchParams> | undefined;
  /** Refreshes (one run at a time) when the access token is about to expire. */
  private readonly refresh: () => Promise<void>;
  private preRegistered: StoredOAuthClientInformation | undefined;
  private readonly now: () => number;
  /** An https URL serving this client's metadata document (its client_id where the server accepts one). */
  readonly clientMetadataUrl?: string;
  /** With `oauth.dpop`: the key the tokens are bound to (the SDK signs the proofs); absent otherwise. */
  readonly dpop?: () => Promise<DpopSession>;
  private dpopLoading: Promise<DpopSession> | undefined;

  private constructor(
    private readonly config: HttpServerConfig,
    private readonly options: OAuthProviderOptions,
    record: StoredCredentials | undefined,
  ) {
    this.record = this.forThisServer(record);
    this.now = options.now ?? Date.now;
    this.refresh = singleRenewal(this, config.url, options.fetch);
    if (config.oauth?.clientMetadataUrl) this.clientMetadataUrl = config.oauth.clientMetadataUrl;
    if (config.oauth?.dpop) {
      this.dpop = () => (this.dpopLoading ??= dpopSession(this.record.dpopKey, (dpopKey) => this.update({ dpopKey })));
    }
    const { clientId, clientSecret } = config.oauth ?? {};
    if (clientId) {
      this.preRegistered = {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        redirect_uris: [this.redirectUrl],
      };
    }
  }

  /** Loads the server's record from the store first: `redirectUrl` and `clientMetadata` are read synchronously. */
  static async load(config: HttpServerConfig, options: OAuthProviderOptions): Promise<StoredOAuthProvider> {
    return new StoredOAuthProvider(config, options, await options.store.load(config.id));
  }

  get redirectUrl(): string {
    if (this.options.redirectUrl) return this.options.redirectUrl;
    const registered = this.record.client?.redirect_uris;
    return Array.isArray(registered) && typeof registered[0] === "string" ? registered[0] : DEFAULT_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.config.oauth?.scopes;
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  /** True when a sign-in left tokens for this server. */
  get hasTokens(): boolean {
    return typeof this.record.tokens?.access_token === "string";
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url");
    return this.expectedState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    if (this.preRegistered) return this.preRegistered;
    // A session may refresh what it has, but registering a client is the start of a sign-in.
    if (!this.options.authorize && !this.canRefresh()) throw this.signInRequired();
    return this.record.client as StoredOAuthClientInformation | undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    if (this.preRegistered) {
      // Configured credentials stay in the config; only the issuer stamp is kept, in memory.
      this.preRegistered = info;
      return;
    }
    await this.update({ client: info as unknown as JsonObject });
  }

  /**
   * The stored tokens. The transport's per-request read (no `ctx`) refreshes
   * first when the access token is about to expire, so a request rarely
   * meets a 401 for an expired token.
   */
  async tokens(ctx?: { issuer: string }): Promise<StoredOAuthTokens | undefined> {
    const soon = expiresSoon(
      this.record.expiresAt,
      this.record.tokens?.expires_in,
      this.options.refreshSkewMs,
      this.now(),
    );
    if (ctx === undefined && soon && this.canRefresh()) await this.refresh();
    return this.record.tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const expiresIn = typeof tokens.expires_in === "number" ? tokens.expires_in : undefined;
    await this.change((current) => {
      const { expiresAt: _previous, ...rest } = current;
      return {
        ...rest,
        tokens: tokens as unknown as JsonObject,
        ...(expiresIn === undefined ? {} : { expiresAt: this.now() + expiresIn * 1000 }),
      };
    });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    const authorize = this.options.authorize;
    if (!authorize) throw this.signInRequired();
    this.pending = authorize(authorizationUrl);
    // Picked up by `takeAuthorization`; a failure must not go unhandled meanwhile.
    this.pending.catch(() => undefined);
  }

  /**
   * The answer of the sign-in started by the last `redirectToAuthorization`,
   * checked against the `state` we sent; `undefined` when none was started.
   */
  async takeAuthorization(): Promise<URLSearchParams | undefined> {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return undefined;
    const params = await pending;
    const error = params.get("error");
    if (error) {
      throw new SignInRequired(
        `the authorization server refused the sign-in: ${error}${params.get("error_description") ? ` (${params.get("error_description")})` : ""}`,
      );
    }
    if (this.expectedState !== undefined && params.get("state") !== this.expectedState) {
      throw new SignInRequired("the sign-in redirect carried the wrong state; start the sign-in again");
    }
    return params;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new SignInRequired("no sign-in is in progress");
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery: JSON.parse(JSON.stringify(state)) as JsonObject });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery as OAuthDiscoveryState | undefined;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    const drop: Record<typeof scope, readonly (keyof StoredCredentials)[]> = {
      all: ["client", "tokens", "expiresAt", "discovery"],
      client: ["client"],
      tokens: ["tokens", "expiresAt"],
      discovery: ["discovery"],
    };
    await this.change((current) => {
      const next: Record<string, unknown> = { ...current };
      for (const key of drop[scope]) delete next[key];
      return next as unknown as StoredCredentials;
    });
  }

  /** Forget the tokens (keeping the registration), so the next connect signs in afresh. */
  forgetTokens(): Promise<void> {
    return this.invalidateCredentials("tokens");
  }

  private canRefresh(): boolean {
    return typeof this.record.tokens?.refresh_token === "string";
  }

  private update(patch: Partial<StoredCredentials>): Promise<void> {
    return this.change((current) => ({ ...current, ...patch }));
  }

  /**
   * Apply `edit` to the stored record: to the one in the store now when the
   * store can update in one step (another process may have refreshed or
   * registered meanwhile), else to ours, saved whole.
   */
  private async change(edit: (current: StoredCredentials) => StoredCredentials): Promise<void> {
    const { store } = this.options;
    if (store.update) {
      this.record = await store.update(this.config.id, (stored) => edit(this.forThisServer(stored)));
      return;
    }
    this.record = edit(this.record);
    await store.save(this.config.id, this.record);
  }

  /** Credentials issued for another URL never travel to this one. */
  private forThisServer(record: StoredCredentials | undefined): StoredCredentials {
    return record?.serverUrl === this.config.url ? record : { serverUrl: this.config.url };
  }

  private signInRequired(): SignInRequired {
    return new SignInRequired(
      this.hasTokens ? "the stored sign-in has expired and cannot be refreshed" : "no sign-in is stored",
    );
  }
}
