/**
 * URIs that other items point at rather than list: a skill's files
 * (`skill://`, SEP-2640) and a tool's app view (`ui://`, SEP-1865). Under
 * prefixed names each is published under its server whether or not another
 * server uses it too, so a reference (a tool's `_meta.ui.resourceUri`, a
 * skill entry's file list) means the same thing however the listings went:
 * the server goes in as the first path segment, which keeps the scheme (hosts
 * require `ui://` for views) and, for a skill, its name (the last segment).
 *
 *   ui://dice/board.html       from server "a" → ui://a/dice/board.html
 *   skill://pdf/SKILL.md       from server "a" → skill://a/pdf/SKILL.md
 */
const SCOPED_SCHEMES = ["skill://", "ui://"] as const;

function schemeOf(uri: string): (typeof SCOPED_SCHEMES)[number] | undefined {
  return SCOPED_SCHEMES.find((scheme) => uri.startsWith(scheme));
}

/** Whether `uri` (or a URI template) is a skill file or an app view. */
export function isScopedUri(uri: string): boolean {
  return schemeOf(uri) !== undefined;
}

/** `uri` with `server` as its first path segment; other URIs unchanged. */
export function scopeUri(server: string, uri: string): string {
  const scheme = schemeOf(uri);
  return scheme === undefined ? uri : `${scheme}${server}/${uri.slice(scheme.length)}`;
}

/** `{server, original}` for a scoped URI; undefined for any other. */
export function unscopeUri(uri: string): { server: string; original: string } | undefined {
  const scheme = schemeOf(uri);
  if (scheme === undefined) return undefined;
  const rest = uri.slice(scheme.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  return { server: rest.slice(0, slash), original: `${scheme}${rest.slice(slash + 1)}` };
}
