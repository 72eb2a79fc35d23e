/**
 * Signing in to one HTTP server: forget its stored tokens (the registration
 * stays), connect through the ordinary endpoint with an interactive
 * `authorize` step, and list its tools to prove the new sign-in works. The
 * OAuth flow is the SDK's, run by the endpoint's transport; a host supplies
 * the user-facing part (browser, loopback listener, pasted URL).
 */
import type { HttpServerConfig, TokenStore } from "@indus/contract";
import type { EndpointOptions } from "./endpoint-options";
import { StoredOAuthProvider, type AuthorizationStep } from "./auth/oauth-provider";
import { McpServerEndpoint } from "./server-endpoint";

export interface SignInOptions {
  readonly store: TokenStore;
  /** Where the authorization server sends the browser back; `authorize` listens there. */
  readonly redirectUrl: string;
  /** Shows the user the authorization URL and resolves with the redirect's query. */
  readonly authorize: AuthorizationStep;
  /** `client_name` when the client registers itself. */
  readonly clientName?: string;
  /** Everything else the endpoint takes (timeouts, client info, fetch limits). */
  readonly endpoint?: Omit<EndpointOptions, "oauth">;
}

export interface SignInResult {
  /** False when the server never asked for a sign-in (it is open, or a header already authorizes). */
  readonly signedIn: boolean;
  readonly toolCount: number;
  readonly serverName?: string;
}

export async function signIn(config: HttpServerConfig, options: SignInOptions): Promise<SignInResult> {
  const clientName = options.clientName ?? "indus";
  const stale = await StoredOAuthProvider.load(config, { store: options.store, clientName });
  if (stale.hasTokens) await stale.forgetTokens();
  let asked = false;
  const endpoint = new McpServerEndpoint(config, undefined, {
    ...options.endpoint,
    oauth: {
      store: options.store,
      clientName,
      redirectUrl: options.redirectUrl,
      authorize: (url) => {
        asked = true;
        return options.authorize(url);
      },
    },
  });
  try {
    await endpoint.open();
    const tools = await endpoint.listTools();
    const name = endpoint.serverInfo?.name;
    return { signedIn: asked, toolCount: tools.length, ...(name ? { serverName: name } : {}) };
  } finally {
    await endpoint.close();
  }
}
