/** How the HTTP host acts as an OAuth 2.1 resource server (the MCP authorization spec). */

export interface OAuthResourceOptions {
  /** The authorization server's issuer URL: tokens must carry it as `iss`; its metadata names the JWKS. */
  readonly issuer: string;
  /**
   * The gateway's public MCP URL, as clients reach it (behind a proxy, the
   * proxy's): tokens must name it in `aud` (RFC 8707), and the protected
   * resource metadata (RFC 9728) names it. Default: the URL the host serves.
   */
  readonly resource?: string;
  /** Scopes every token must hold; a token without one is refused 403 `insufficient_scope`. */
  readonly requiredScopes?: readonly string[];
  /** Scopes the metadata advertises. Default: `requiredScopes`. */
  readonly scopesSupported?: readonly string[];
  /** The issuer's key set. Default: `jwks_uri` from the issuer's metadata. */
  readonly jwksUri?: string;
  /** Opaque (non-JWT) tokens are checked by RFC 7662 introspection when this is given. */
  readonly introspection?: IntrospectionOptions;
  /** The token claim listing the caller's groups. Default `groups`. */
  readonly groupsClaim?: string;
  /** Clock skew allowed on `exp` and `nbf`, in seconds. Default 30. */
  readonly clockToleranceSeconds?: number;
}

export interface IntrospectionOptions {
  /** Default: `introspection_endpoint` from the issuer's metadata. */
  readonly endpoint?: string;
  /** The gateway's own client at the issuer (client_secret_basic). */
  readonly clientId: string;
  readonly clientSecret: string;
}
