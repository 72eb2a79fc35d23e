/**
 * The OAuth gate in front of the MCP endpoint: every request's bearer token
 * is verified (`token-verifier`), its audience and required scopes checked
 * with the SDK's own `verifyBearerToken`; a refusal is the SDK's answer (401
 * `invalid_token` or 403 `insufficient_scope` naming the scope, each with a
 * `WWW-Authenticate` challenge pointing at the protected resource metadata).
 * It also serves that metadata (RFC 9728), which names the issuer. A header
 * that passed is let through again on a map lookup until its token expires,
 * or `RECHECK_MS` passed (an introspected token is asked about again then);
 * on a connection whose last request passed with the same header, without
 * even the lookup.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { AuthInfo, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/server";
import type { OAuthResourceOptions } from "./oauth-options";
import { tokenVerifier } from "./token-verifier";

/** An answer the gate gives instead of letting a request through. */
export interface Refusal {
  readonly kind: "refused";
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** What was wrong, for the audit log (never the token). */
  readonly reason: string;
}

export interface BearerGate {
  /** The verified token, or the refusal to answer with. */
  check(authorization: string | undefined): Promise<AuthInfo | Refusal>;
  /**
   * The token of a header that passed `check` and still may: no promise to wait for (most requests).
   * `connection`: what the request came on (its socket), where the header is remembered.
   */
  passed(authorization: string | undefined, connection?: object): AuthInfo | undefined;
  /** Answers a GET of the protected resource metadata; false for any other request. */
  serveMetadata(pathname: string, request: IncomingMessage, response: ServerResponse): boolean;
  readonly resource: URL;
  readonly metadataUrl: string;
}

/** A passed header is checked in full again after this long, however long its token lives. */
const RECHECK_MS = 60_000;
const MAX_PASSED = 10_000;

/** A header that passed: its token, and until when it may pass again unchecked. */
interface Passed {
  readonly header: string;
  readonly info: AuthInfo;
  readonly until: number;
}

export function bearerGate(options: OAuthResourceOptions, resource: URL): BearerGate {
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const verifier = tokenVerifier(options, resource.href, metadataUrl);
  const verifyOptions = { verifier, requiredScopes, resourceMetadataUrl: metadataUrl, expectedResource: resource };
  const metadata: OAuthProtectedResourceMetadata = {
    resource: resource.href,
    authorization_servers: [options.issuer],
    bearer_methods_supported: ["header"],
    ...(options.scopesSupported !== undefined || requiredScopes.length > 0
      ? { scopes_supported: [...(options.scopesSupported ?? requiredScopes)] }
      : {}),
  };
  const metadataBody = JSON.stringify(metadata);
  const metadataPaths = new Set([new URL(metadataUrl).pathname, "/.well-known/oauth-protected-resource"]);
  const passed = new Map<string, Passed>();
  /**
   * The header that last passed on each connection. A keep-alive client sends
   * the same one each time, and comparing it with the last costs less than
   * hashing it for the map: a JWT is near a kilobyte, a fresh string per
   * request, and its lookup was a few µs of every call (measured).
   */
  const lastOn = new WeakMap<object, Passed>();
  const passedInfo = (authorization: string | undefined, connection?: object) => {
    if (authorization === undefined) return undefined;
    const last = connection === undefined ? undefined : lastOn.get(connection);
    const known = last?.header === authorization ? last : passed.get(authorization);
    if (known === undefined || known.until <= Date.now()) return undefined;
    if (known !== last && connection !== undefined) lastOn.set(connection, known);
    return known.info;
  };
  return {
    resource,
    metadataUrl,
    passed: passedInfo,
    async check(authorization) {
      const known = passedInfo(authorization);
      if (known !== undefined) return known;
      try {
        const info = await verifyBearerToken(authorization, verifyOptions);
        if (passed.size >= MAX_PASSED) passed.clear();
        // verifyBearerToken refuses a token without a numeric `expiresAt`.
        const until = Math.min(info.expiresAt! * 1000, Date.now() + RECHECK_MS);
        passed.set(authorization!, { header: authorization!, info, until });
        return info;
      } catch (error) {
        const answer = bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl: metadataUrl });
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, key) => (headers[key] = value));
        return {
          kind: "refused",
          status: answer.status,
          headers,
          body: await answer.text(),
          reason: error instanceof Error ? error.message : String(error),
        };
      }
    },
    serveMetadata(pathname, request, response) {
      if (!metadataPaths.has(pathname)) return false;
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { Allow: "GET" }).end();
        return true;
      }
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Cache-Control": "max-age=3600",
        "Access-Control-Allow-Origin": "*",
      });
      response.end(request.method === "HEAD" ? undefined : metadataBody);
      return true;
    },
  };
}

export function isRefusal(value: AuthInfo | Refusal): value is Refusal {
  return (value as Refusal).kind === "refused";
}
