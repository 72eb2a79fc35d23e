/**
 * Renewing an access token before it expires, shared by the stored sign-in
 * (a refresh) and the client_credentials grant (the grant run again): the
 * SDK's `auth()` does the work; this only decides when, and runs one at a
 * time. A failed renewal leaves the old token, and the server's 401 takes it
 * from there.
 */
import { auth, type FetchLike, type OAuthClientProvider } from "@modelcontextprotocol/client";

const DEFAULT_REFRESH_SKEW_MS = 60_000;

/** True when less than `skewMs` (capped at half the token's lifetime) is left before `expiresAt`. */
export function expiresSoon(
  expiresAt: number | undefined,
  expiresInSeconds: unknown,
  skewMs: number | undefined,
  now: number,
): boolean {
  if (expiresAt === undefined) return false;
  const lifetimeMs = typeof expiresInSeconds === "number" ? expiresInSeconds * 1000 : 0;
  const skew = Math.min(skewMs ?? DEFAULT_REFRESH_SKEW_MS, lifetimeMs / 2);
  return expiresAt - now <= skew;
}

/** Runs `auth()` for `provider`, one run at a time: callers meanwhile wait for the run in progress. */
export function singleRenewal(
  provider: OAuthClientProvider,
  serverUrl: string,
  fetch: FetchLike | undefined,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () =>
    (running ??= auth(provider, { serverUrl, ...(fetch ? { fetchFn: fetch } : {}) })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        running = undefined;
      }));
}
