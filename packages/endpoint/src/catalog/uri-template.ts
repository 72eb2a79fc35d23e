/**
 * RFC 6570 matching for resource templates, via the SDK's `UriTemplate`, so a
 * gateway can tell which server's template a concrete URI was expanded from.
 */
import { UriTemplate } from "@modelcontextprotocol/client";

/** True when `uri` is an expansion of `template`; a malformed template matches nothing. */
export function uriTemplateMatches(template: string, uri: string): boolean {
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    return false;
  }
}
