/**
 * What a pin covers of each kind of definition: the fields that reach the
 * model or the user (name, title, description, schemas, annotations, prompt
 * arguments, resource metadata), and the digest of the `ui://` body a tool or
 * resource presents. Everything else a server sends (`_meta` beyond the UI
 * link, icons, list order) may change without a pin breaking.
 */
import {
  presentedUi,
  type DefinitionKind,
  type JsonObject,
  type JsonValue,
  type ListedDefinition,
} from "@indus/contract";
import { contentDigest } from "@indus/ledger";

const FIELDS: Readonly<Record<DefinitionKind, readonly string[]>> = {
  tool: ["name", "title", "description", "inputSchema", "outputSchema", "annotations"],
  prompt: ["name", "title", "description", "arguments"],
  resource: ["uri", "name", "title", "description", "mimeType"],
  "resource-template": ["uriTemplate", "name", "title", "description", "mimeType"],
};

/** The server's own name for a definition: tool or prompt name, resource URI, URI template. */
export function definitionName(kind: DefinitionKind, item: JsonObject): string {
  const key = kind === "resource" ? "uri" : kind === "resource-template" ? "uriTemplate" : "name";
  const value = item[key];
  return typeof value === "string" ? value : "";
}

/** The digest of a `ui://` body as read (`null`: the read failed). */
export function bodyDigest(contents: JsonValue | null): string | null {
  return contents === null ? null : contentDigest(contents);
}

/** The pinned fields of one definition, in a fixed shape (absent fields stay absent). */
export function pinnedDefinition(kind: DefinitionKind, listed: ListedDefinition): JsonObject {
  const out: JsonObject = {};
  for (const field of FIELDS[kind]) {
    const value = listed.item[field];
    if (value !== undefined) out[field] = value;
  }
  const ui = presentedUi(kind, listed.item);
  if (ui !== undefined) {
    out["ui"] = { resourceUri: ui, body: bodyDigest(listed.uiBody === undefined ? null : listed.uiBody) };
  }
  return out;
}

/** The top-level pinned fields whose values differ between two pinned definitions, in field order. */
export function changedFields(pinned: JsonObject, current: JsonObject): string[] {
  const keys = [...new Set([...Object.keys(pinned), ...Object.keys(current)])];
  return keys.filter((key) => fieldDigest(pinned[key]) !== fieldDigest(current[key]));
}

function fieldDigest(value: JsonValue | undefined): string {
  return value === undefined ? "" : contentDigest(value);
}
