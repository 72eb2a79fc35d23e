/**
 * Access tokens checked the way the MCP authorization spec asks of a
 * resource server: a JWT against the issuer's key set with `jose`
 * (signature, `iss`, `aud` = this resource, `exp`, `nbf`), an opaque token by
 * RFC 7662 introspection when configured. `jose` is loaded on first use, so
 * a host without OAuth never loads it. A verified token is remembered until
 * it expires (bounded), so a client's next request costs a map lookup and
 * gets the same `AuthInfo` back (the gateway reads its caller and grant once
 * per token, keyed by that object).
 */
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { AuthInfo, OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type * as JoseModule from "jose";
import { fetchIssuerMetadata, fetchJson } from "./issuer-metadata";
import type { IssuerMetadata } from "./issuer-metadata";
import type { OAuthResourceOptions } from "./oauth-options";

/** Longer bearer values are refused before any parsing. */
const MAX_TOKEN_LENGTH = 16 * 1024;
const MAX_REMEMBERED_TOKENS = 10_000;
/** An introspected token is asked about again after this long, even if it lives longer. */
const INTROSPECTION_TTL_MS = 60_000;
const DEFAULT_CLOCK_TOLERANCE_S = 30;

type Jose = typeof JoseModule;
type KeySet = ReturnType<Jose["createRemoteJWKSet"]>;

/**
 * The verifier, and the audience it checks (the resource's URL). Its answers
 * name `resourceMetadataUrl` already, so the SDK's `verifyBearerToken` hands
 * them on as they are rather than a copy per request.
 */
export function tokenVerifier(
  options: OAuthResourceOptions,
  resource: string,
  resourceMetadataUrl?: string,
): OAuthTokenVerifier {
  const remembered = new Map<string, { readonly info: AuthInfo; readonly until: number }>();
  let metadata: Promise<IssuerMetadata> | undefined;
  let keys: Promise<{ jose: Jose; keySet: KeySet }> | undefined;
  const issuerMetadata = () => {
    metadata ??= fetchIssuerMetadata(options.issuer).catch((error: unknown) => {
      metadata = undefined;
      throw error;
    });
    return metadata;
  };
  const keySet = () => {
    keys ??= loadKeySet(options, issuerMetadata).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  const claims = claimReader(options, resource, resourceMetadataUrl);

  async function verifyJwt(token: string): Promise<AuthInfo> {
    const { jose, keySet: set } = await keySet().catch((error: unknown) => {
      throw new OAuthError(OAuthErrorCode.ServerError, `cannot read the issuer's keys: ${messageOf(error)}`);
    });
    try {
      const { payload } = await jose.jwtVerify(token, set, {
        issuer: options.issuer,
        audience: resource,
        clockTolerance: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_S,
        requiredClaims: ["exp"],
      });
      return claims(token, payload);
    } catch (error) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, jwtProblem(jose, error));
    }
  }

  async function introspect(token: string): Promise<AuthInfo> {
    const introspection = options.introspection;
    if (introspection === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, "Token is not a JWT");
    const endpoint = introspection.endpoint ?? (await issuerMetadata()).introspection_endpoint;
    if (endpoint === undefined) {
      throw new OAuthError(OAuthErrorCode.ServerError, `issuer ${options.issuer} publishes no introspection_endpoint`);
    }
    const basic = Buffer.from(
      `${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(introspection.clientSecret)}`,
    ).toString("base64");
    const answer = await fetchJson(new URL(endpoint), {
      method: "POST",
      headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    }).catch((error: unknown) => {
      throw new OAuthError(OAuthErrorCode.ServerError, `token introspection failed: ${messageOf(error)}`);
    });
    if (answer["active"] !== true) throw new OAuthError(OAuthErrorCode.InvalidToken, "Token is not active");
    if (answer["iss"] !== undefined && answer["iss"] !== options.issuer) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, "Token was issued by another issuer");
    }
    if (!audiences(answer["aud"]).includes(resource)) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, "Token was not issued for this resource");
    }
    return claims(token, answer);
  }

  return {
    async verifyAccessToken(token) {
      if (token.length > MAX_TOKEN_LENGTH) throw new OAuthError(OAuthErrorCode.InvalidToken, "Token is too long");
      const known = remembered.get(token);
      if (known !== undefined && known.until > Date.now()) return known.info;
      const jwt = token.split(".").length === 3;
      const info = jwt ? await verifyJwt(token) : await introspect(token);
      const expires = (info.expiresAt ?? 0) * 1000;
      if (remembered.size >= MAX_REMEMBERED_TOKENS) remembered.clear();
      remembered.set(token, { info, until: jwt ? expires : Math.min(expires, Date.now() + INTROSPECTION_TTL_MS) });
      return info;
    },
  };
}

/** `jose` and the issuer's key set (its `jwks_uri`, or the one configured). */
async function loadKeySet(options: OAuthResourceOptions, issuerMetadata: () => Promise<IssuerMetadata>) {
  const jose = await import("jose");
  const uri = options.jwksUri ?? (await issuerMetadata()).jwks_uri;
  if (uri === undefined) throw new Error(`issuer ${options.issuer} publishes no jwks_uri`);
  return { jose, keySet: jose.createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000 }) };
}

/** A verified token's claims as the SDK's `AuthInfo`; who the caller is rides in `extra`. */
function claimReader(options: OAuthResourceOptions, resource: string, resourceMetadataUrl: string | undefined) {
  const groupsClaim = options.groupsClaim ?? "groups";
  return (token: string, claims: Record<string, unknown>): AuthInfo => {
    const clientId = stringClaim(claims["client_id"]) ?? stringClaim(claims["azp"]) ?? "";
    const subject = stringClaim(claims["sub"]);
    const exp = claims["exp"];
    return {
      token,
      clientId,
      scopes: listClaim(claims["scope"] ?? claims["scp"]),
      ...(typeof exp === "number" && { expiresAt: exp }),
      resource: new URL(resource),
      ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }),
      extra: { ...(subject !== undefined && { subject }), groups: listClaim(claims[groupsClaim]) },
    };
  };
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A space-separated string or an array of strings (at most 256 of them). */
function listClaim(value: unknown): string[] {
  const items = typeof value === "string" ? value.split(" ") : Array.isArray(value) ? value : [];
  return items.filter((item): item is string => typeof item === "string" && item !== "").slice(0, 256);
}

function audiences(value: unknown): string[] {
  return typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
}

/** What is wrong with a JWT, in words a client can act on (never the token itself). */
function jwtProblem(jose: Jose, error: unknown): string {
  if (error instanceof jose.errors.JWTExpired) return "Token has expired";
  if (error instanceof jose.errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "Token was not issued for this resource";
    if (error.claim === "iss") return "Token was issued by another issuer";
    if (error.claim === "nbf") return "Token is not valid yet";
    return `Token claim ${error.claim} is invalid`;
  }
  if (error instanceof jose.errors.JWSSignatureVerificationFailed) return "Token signature is invalid";
  if (error instanceof jose.errors.JWKSNoMatchingKey) return "Token is signed with an unknown key";
  return "Token is invalid";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
