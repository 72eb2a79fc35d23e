/**
 * The endpoint's side of OAuth: recognising an authorization failure among
 * the SDK's errors (so it becomes an `unauthorized` fault and never an SSE
 * fallback), and redeeming a sign-in the user just completed in the browser
 * (the SDK's documented interactive flow: `UnauthorizedError`, the user
 * authorizes, `finishAuth`, try again).
 */
import {
  InsufficientScopeError,
  OAuthClientFlowError,
  OAuthError,
  SdkHttpError,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type Transport,
} from "@modelcontextprotocol/client";
import { CredentialsUnavailable } from "./client-credentials";
import { SignInRequired, type StoredOAuthProvider } from "./oauth-provider";

/** Why `error` (or what caused it) is an authorization failure; `undefined` when it is not one. */
export function authFailure(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 6; depth += 1) {
    if (current instanceof SignInRequired || current instanceof CredentialsUnavailable) return current.message;
    if (current instanceof InsufficientScopeError) {
      return `the server wants more access (scope ${JSON.stringify(current.requiredScope ?? "")})`;
    }
    if (current instanceof UnauthorizedError || current instanceof OAuthClientFlowError) {
      return `the sign-in did not work (${current.message})`;
    }
    if (current instanceof OAuthError) return `the authorization server refused: ${current.message}`;
    if (current instanceof SdkHttpError && (current.status === 401 || current.status === 403)) {
      return `the server answered HTTP ${current.status}`;
    }
    if (current instanceof SseError && (current.code === 401 || current.code === 403)) {
      return `the server answered HTTP ${current.code}`;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/**
 * When the provider's `authorize` step ran during the failed request, wait for
 * its answer and exchange the code on `transport`; `true` means the request is
 * worth one more try.
 */
export async function redeemSignIn(transport: Transport, provider: StoredOAuthProvider): Promise<boolean> {
  const params = await provider.takeAuthorization();
  if (!params) return false;
  if (!(transport instanceof StreamableHTTPClientTransport) && !(transport instanceof SSEClientTransport)) return false;
  await transport.finishAuth(params);
  return true;
}
