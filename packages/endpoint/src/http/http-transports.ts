/**
 * The SDK's HTTP client transports as the endpoint builds them: configured
 * headers on every request (`requestInit.headers` rides on each POST, GET and
 * DELETE), our own `fetch` (no idle body timeout, see `http-fetch.ts`), and
 * the stored sign-in as the SDK's `authProvider` when the server uses OAuth.
 */
import {
  SSEClientTransport,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type FetchLike,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";
import { authFailure } from "../auth/http-auth";

export function createStreamableTransport(
  url: string,
  headers: Readonly<Record<string, string>> | undefined,
  fetch: FetchLike,
  authProvider?: OAuthClientProvider,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...headers } },
    fetch,
    ...(authProvider ? { authProvider } : {}),
  });
}

export function createSseTransport(
  url: string,
  headers: Readonly<Record<string, string>> | undefined,
  fetch: FetchLike,
  authProvider?: OAuthClientProvider,
): SSEClientTransport {
  return new SSEClientTransport(new URL(url), {
    requestInit: { headers: { ...headers } },
    fetch,
    ...(authProvider ? { authProvider } : {}),
  });
}

/** A Streamable HTTP server answering 404 for our session id: it restarted or expired us. */
export function isSessionGone(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

/**
 * The MCP spec's cue for a legacy (SSE-only) server: the initialize POST fails
 * with a 4xx. Not 401 or 403: a server that wants a sign-in is not legacy, and
 * falling back would only hide why it refused.
 */
export function isLegacyServerHint(error: unknown): boolean {
  return (
    error instanceof SdkHttpError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 401 &&
    error.status !== 403 &&
    authFailure(error) === undefined
  );
}
