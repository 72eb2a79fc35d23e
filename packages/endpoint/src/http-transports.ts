/**
 * The SDK's HTTP client transports as the endpoint builds them: configured
 * headers on every request (`requestInit.headers` rides on each POST, GET and
 * DELETE), and our own `fetch` (no idle body timeout, see `http-fetch.ts`).
 */
import {
  SSEClientTransport,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type FetchLike,
} from "@modelcontextprotocol/client";

export function createStreamableTransport(
  url: string,
  headers: Readonly<Record<string, string>> | undefined,
  fetch: FetchLike,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { ...headers } }, fetch });
}

export function createSseTransport(
  url: string,
  headers: Readonly<Record<string, string>> | undefined,
  fetch: FetchLike,
): SSEClientTransport {
  return new SSEClientTransport(new URL(url), { requestInit: { headers: { ...headers } }, fetch });
}

/** A Streamable HTTP server answering 404 for our session id: it restarted or expired us. */
export function isSessionGone(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

/** The MCP spec's cue for a legacy (SSE-only) server: the initialize POST fails with a 4xx. */
export function isLegacyServerHint(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status >= 400 && error.status < 500;
}
