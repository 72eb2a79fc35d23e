/**
 * The authorization server's metadata (RFC 8414, or OpenID discovery), read
 * once when first needed: where its key set and introspection endpoint are.
 * Bounded in time and size like anything another server sends.
 */
import { protocolFault } from "@indus/contract";

export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

const FETCH_TIMEOUT_MS = 10_000;
const MAX_METADATA_BYTES = 256 * 1024;

/** The well-known URLs an issuer may publish its metadata at, in the order MCP clients try them. */
export function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  const at = (wellKnown: string, suffix = "") => new URL(`${wellKnown}${suffix}`, url.origin);
  return path === ""
    ? [at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")]
    : [
        at("/.well-known/oauth-authorization-server", path),
        at("/.well-known/openid-configuration", path),
        at(`${path}/.well-known/openid-configuration`),
      ];
}

/** Reads the issuer's metadata; a metadata document naming another issuer is refused (RFC 8414 §3.3). */
export async function fetchIssuerMetadata(issuer: string): Promise<IssuerMetadata> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const document = await fetchJson(url);
      if (document["issuer"] !== issuer) {
        failures.push(`${url.href} names issuer ${JSON.stringify(document["issuer"])}`);
        continue;
      }
      return document as unknown as IssuerMetadata;
    } catch (error) {
      failures.push(`${url.href}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw protocolFault("unauthorized", `cannot read the metadata of issuer ${issuer}: ${failures.join("; ")}`);
}

/** GET or POST a JSON object, refusing slow, large or non-object answers. */
export async function fetchJson(url: URL, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    ...init,
    headers: { Accept: "application/json", ...init.headers },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    redirect: "error",
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_METADATA_BYTES) {
    await response.body?.cancel();
    throw new Error(`answer of ${declared} bytes is over ${MAX_METADATA_BYTES}`);
  }
  const text = await response.text();
  if (text.length > MAX_METADATA_BYTES) throw new Error(`answer is over ${MAX_METADATA_BYTES} bytes`);
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("answer is not a JSON object");
  return value as Record<string, unknown>;
}
