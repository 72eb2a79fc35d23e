/**
 * Which mounted server a published item belongs to, for policy rules that
 * grant whole servers. The default reads the gateway's own naming: tools and
 * prompts `<server>__<name>`, shared resource URIs `indus://<server>/...`. An
 * item it cannot place (a built-in tool, a resource URI in its server's own
 * form) is granted only by a rule that grants every server or names the item.
 */
import { QUALIFIER } from "@indus/contract";

export interface ItemOwners {
  tool(name: string): string | undefined;
  prompt(name: string): string | undefined;
  /** A resource URI or template. */
  resource(uri: string): string | undefined;
}

const GATEWAY_URI_PREFIX = "indus://";

function qualifier(name: string): string | undefined {
  const at = name.indexOf(QUALIFIER);
  return at > 0 ? name.slice(0, at) : undefined;
}

export const PUBLISHED_NAME_OWNERS: ItemOwners = {
  tool: qualifier,
  prompt: qualifier,
  resource(uri) {
    if (!uri.startsWith(GATEWAY_URI_PREFIX)) return undefined;
    const slash = uri.indexOf("/", GATEWAY_URI_PREFIX.length);
    return slash > GATEWAY_URI_PREFIX.length ? uri.slice(GATEWAY_URI_PREFIX.length, slash) : undefined;
  },
};
