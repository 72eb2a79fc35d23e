/**
 * The SDK's `OAuthClientProvider` for the client_credentials grant
 * (machine-to-machine: no browser, no stored sign-in). The grant, discovery,
 * `resource`, client authentication and the JWT assertion are the SDK's
 * (`auth()`, `createPrivateKeyJwtAuth`); this class only holds the client's
 * proof and the current token, in memory. It stands in for the SDK's
 * `ClientCredentialsProvider`/`PrivateKeyJwtProvider` because those fix the
 * secret method to client_secret_basic and warn on every construction without
 * an expected issuer; here the config picks the method and `issuer` is
 * optional.
 *
 * A token is obtained when the server first answers 401, and again (the
 * grant re-run) shortly before it expires or whenever the server refuses it.
 */
import {
  createPrivateKeyJwtAuth,
  DpopSession,
  type AddClientAuthentication,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { HttpServerConfig } from "@indus/contract";
import type { ClientProof } from "./client-credentials";
import { expiresSoon, singleRenewal } from "./token-renewal";

export interface ClientCredentialsOptions {
  readonly proof: ClientProof;
  /** `client_name` in the client's metadata. */
  readonly clientName: string;
  /** The fetch the SDK's auth requests use (the endpoint's own). */
  readonly fetch?: FetchLike;
  /** Re-run the grant when less than this is left of the token (capped at half its lifetime); default 60 s. */
  readonly refreshSkewMs?: number;
  readonly now?: () => number;
}

export class ClientCredentialsGrant implements OAuthClientProvider {
  /** Signs the private_key_jwt assertion; absent for a client secret (the SDK then applies basic or post). */
  readonly addClientAuthentication?: AddClientAuthentication;
  /** With `oauth.dpop`: a key for this endpoint's life (its tokens live no longer); the SDK signs the proofs. */
  readonly dpop?: () => Promise<DpopSession>;
  private dpopSession: Promise<DpopSession> | undefined;
  private current: StoredOAuthTokens | undefined;
  private expiresAt: number | undefined;
  /** Runs the grant again (one run at a time) when the token is about to expire. */
  private readonly regrant: () => Promise<void>;
  private readonly now: () => number;
  private readonly clientId: string;

  constructor(
    private readonly config: HttpServerConfig,
    private readonly options: ClientCredentialsOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.regrant = singleRenewal(this, config.url, options.fetch);
    this.clientId = config.oauth?.clientId ?? "";
    if (config.oauth?.dpop) this.dpop = () => (this.dpopSession ??= DpopSession.create());
    const proof = options.proof;
    if (proof.kind === "private_key_jwt") {
      // RFC 7523 §3: iss and sub are the client id; the SDK sets aud to the authorization server's issuer.
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: this.clientId,
        subject: this.clientId,
        privateKey: proof.key,
        alg: proof.algorithm,
      });
    }
  }

  /** No redirect: `auth()` takes the non-interactive path and asks `prepareTokenRequest` for the grant. */
  get redirectUrl(): undefined {
    return undefined;
  }

  private get method(): string {
    return this.options.proof.kind === "secret" ? this.options.proof.method : "private_key_jwt";
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.config.oauth?.scopes;
    return {
      client_name: this.options.clientName,
      redirect_uris: [],
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: this.method,
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  /**
   * The configured client. With `issuer` configured the SDK refuses any other
   * authorization server; there is no `saveClientInformation`, so the SDK can
   * never register another client in its place.
   */
  clientInformation(): StoredOAuthClientInformation {
    const proof = this.options.proof;
    const issuer = this.config.oauth?.issuer;
    return {
      client_id: this.clientId,
      token_endpoint_auth_method: this.method,
      ...(proof.kind === "secret" ? { client_secret: proof.secret } : {}),
      ...(issuer ? { issuer } : {}),
    };
  }

  /** The current token; the transport's per-request read (no `ctx`) re-runs the grant first when it is about to expire. */
  async tokens(ctx?: { issuer: string }): Promise<StoredOAuthTokens | undefined> {
    const soon = expiresSoon(this.expiresAt, this.current?.expires_in, this.options.refreshSkewMs, this.now());
    if (ctx === undefined && this.current !== undefined && soon) await this.regrant();
    return this.current;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.current = tokens;
    this.expiresAt = typeof tokens.expires_in === "number" ? this.now() + tokens.expires_in * 1000 : undefined;
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) params.set("scope", scope);
    return params;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") {
      this.current = undefined;
      this.expiresAt = undefined;
    }
  }

  redirectToAuthorization(): void {
    throw new Error("the client_credentials grant has no browser step");
  }

  saveCodeVerifier(): void {
    // No authorization code, so no verifier.
  }

  codeVerifier(): string {
    throw new Error("the client_credentials grant has no code verifier");
  }
}
