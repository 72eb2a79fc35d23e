/**
 * How the catalog publishes what servers list, in either naming mode, and the
 * routes back: published name or URI → owning server and its own name.
 *
 * - prefixed: prompts are `<server>__<prompt>`; a resource URI (or template)
 *   keeps its own form unless several servers list it, then each server's
 *   copy is `indus://<server>/<original>`; a skill file or app view
 *   (`skill://`, `ui://`) always carries its server (see `scoped-uris.ts`).
 * - as-is: everything keeps its own form; when two servers list the same
 *   one, the first in config order keeps it and the other is a clash.
 */
import { QUALIFIER, type JsonObject } from "@indus/contract";
import { isScopedUri, scopeUri } from "./scoped-uris";
import { firstOfferWins, type ClashKind, type NameClash, type NamingMode, type Offered } from "./names";

/** The scheme of rewritten (colliding) resource URIs. */
export const GATEWAY_URI_PREFIX = "indus://";

export function gatewayUri(server: string, original: string): string {
  return `${GATEWAY_URI_PREFIX}${server}/${original}`;
}

/** `{server, original}` for an `indus://<server>/<original>` URI. */
export function parseGatewayUri(uri: string): { server: string; original: string } | undefined {
  if (!uri.startsWith(GATEWAY_URI_PREFIX)) return undefined;
  const rest = uri.slice(GATEWAY_URI_PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  return { server: rest.slice(0, slash), original: rest.slice(slash + 1) };
}

/** Where a published name leads: the server and the name it knows the item by. */
export interface Owner {
  readonly server: string;
  readonly original: string;
}

/** Published items, the owner behind each published key, and (as-is) the clashes. */
export interface Publication {
  readonly items: JsonObject[];
  readonly owners: Map<string, Owner>;
  readonly clashes: NameClash[];
}

/** Publish each item under `rename(server, original)` and remember the way back. */
function publishEach(
  offers: readonly Offered<JsonObject>[],
  key: string,
  rename: (offer: Offered<JsonObject>) => string,
) {
  const owners = new Map<string, Owner>();
  const items = offers.map((offer) => {
    const original = offer.item[key] as string;
    const published = rename(offer);
    owners.set(published, { server: offer.server, original });
    return published === original ? offer.item : { ...offer.item, [key]: published };
  });
  return { items, owners };
}

/** As-is: first offer keeps the key, later offers by other servers are clashes. */
function publishAsIs(offers: readonly Offered<JsonObject>[], key: string, kind: ClashKind): Publication {
  const { kept, clashes } = firstOfferWins(offers, (item) => item[key] as string, kind);
  return { ...publishEach(kept, key, (offer) => offer.item[key] as string), clashes };
}

/** Resources (`uri`) and templates (`uriTemplate`). */
export function publishUris(
  offers: readonly Offered<JsonObject>[],
  key: "uri" | "uriTemplate",
  mode: NamingMode,
): Publication {
  if (mode === "as-is") return publishAsIs(offers, key, key === "uri" ? "resource" : "resource-template");
  const holders = new Map<string, Set<string>>();
  for (const { server, item } of offers) {
    const value = item[key] as string;
    holders.set(value, (holders.get(value) ?? new Set<string>()).add(server));
  }
  const rename = ({ server, item }: Offered<JsonObject>) => {
    const value = item[key] as string;
    if (isScopedUri(value)) return scopeUri(server, value);
    return (holders.get(value)?.size ?? 0) > 1 ? gatewayUri(server, value) : value;
  };
  return { ...publishEach(offers, key, rename), clashes: [] };
}

export function publishPrompts(offers: readonly Offered<JsonObject>[], mode: NamingMode): Publication {
  if (mode === "as-is") return publishAsIs(offers, "name", "prompt");
  const rename = ({ server, item }: Offered<JsonObject>) => `${server}${QUALIFIER}${item["name"] as string}`;
  return { ...publishEach(offers, "name", rename), clashes: [] };
}
