/**
 * How long a list result stays fresh. In the 2026-07-28 era a server says so
 * with `ttlMs` on the result (0: stale at once); the first page's value holds
 * for the whole list, as in the SDK's own response cache, and is capped like
 * it (24 h) so a server cannot pin a list forever. A result without one (every
 * 2025 result) stays fresh until the server announces a change.
 */
export const MAX_LIST_TTL_MS = 86_400_000;

/** When a list requested at `requestedAt` goes stale, or `undefined` for never. */
export function listExpiry(firstPage: unknown, requestedAt: number): number | undefined {
  if (typeof firstPage !== "object" || firstPage === null) return undefined;
  const ttl = (firstPage as { ttlMs?: unknown }).ttlMs;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl < 0) return undefined;
  return requestedAt + Math.min(ttl, MAX_LIST_TTL_MS);
}

export function isExpired(expiresAt: number | undefined, now = Date.now()): boolean {
  return expiresAt !== undefined && now >= expiresAt;
}
