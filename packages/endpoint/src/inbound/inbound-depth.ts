/**
 * The depth bound on what a server sends, applied to each message before
 * anything else reads it: whatever nests deeper than the bound is dropped at
 * the smallest place that keeps the rest (one listed item, one `_meta`, one
 * capability), and a result that cannot be cut that way is refused with an
 * error naming the path. So no recursive code behind the edge ever meets a
 * 10,000-level schema, and one bad tool costs that tool only.
 */
import { formatJsonPath, isRecord, tooDeepAt, type JsonPath } from "@indus/contract";

/** Listing methods and the array each one's items are in. */
const LISTED: Readonly<Record<string, string>> = {
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
};
const ITEM_WORD: Readonly<Record<string, string>> = {
  tools: "tool",
  prompts: "prompt",
  resources: "resource",
  resourceTemplates: "resource template",
};
const HANDSHAKES = new Set(["initialize", "server/discover"]);
/** A result nests so many things too deep that cutting them one by one is not worth it. */
const MAX_CUTS = 1000;

export type DepthCheck =
  { readonly kind: "ok"; readonly issues: readonly string[] } | { readonly kind: "refused"; readonly reason: string };

function itemName(item: unknown, word: string, index: number): string {
  const name = isRecord(item) ? (item["name"] ?? item["uri"] ?? item["uriTemplate"]) : undefined;
  return typeof name === "string" ? `${word} "${name.slice(0, 80)}"` : `${word} #${index}`;
}

/** `inputSchema nests deeper than 128 levels (at inputSchema.properties.a…)`, from step `from` of `path`. */
function tooDeep(path: JsonPath, from: number, maxDepth: number): string {
  const rest = path.slice(from);
  const field = rest.length === 0 ? "it" : String(rest[0]);
  return `${field} nests deeper than ${maxDepth} levels (at ${formatJsonPath(rest, 4)})`;
}

/** The value at `path` (a container: `tooDeepAt` only names containers). */
function at(root: Record<string, unknown>, path: JsonPath): Record<string | number, unknown> {
  let value: unknown = root;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  return value as Record<string | number, unknown>;
}

/** Cut the smallest droppable part around `path`; the issue, or undefined when nothing can be cut. */
function cut(method: string, result: Record<string, unknown>, path: JsonPath, maxDepth: number): string | undefined {
  const listKey = LISTED[method];
  const inItem = listKey !== undefined && path[0] === listKey && typeof path[1] === "number";
  const items = inItem ? (result[listKey] as unknown[]) : undefined;
  const name = items ? itemName(items[path[1] as number], ITEM_WORD[listKey!]!, path[1] as number) : undefined;
  // A `_meta` first: dropping it keeps the item it is on.
  const meta = path.indexOf("_meta");
  if (meta !== -1) {
    delete at(result, path.slice(0, meta))["_meta"];
    const where = formatJsonPath(path.slice(items ? 2 : 0, meta + 1));
    return `${name ? `${name}: ` : ""}${where} dropped: it nests deeper than ${maxDepth} levels`;
  }
  if (items) {
    items.splice(path[1] as number, 1);
    return `${name} dropped: ${tooDeep(path, 2, maxDepth)}`;
  }
  if (HANDSHAKES.has(method) && path[0] === "capabilities" && typeof path[1] === "string") {
    delete at(result, ["capabilities"])[path[1]];
    return `capability "${path[1]}" dropped: ${tooDeep(path, 2, maxDepth)}`;
  }
  return undefined;
}

/**
 * Bound the result of `method` to `maxDepth` levels, cutting in place (the
 * result is this connection's own parse). Each issue says what was dropped
 * and where.
 */
export function boundResultDepth(method: string, result: Record<string, unknown>, maxDepth: number): DepthCheck {
  const issues: string[] = [];
  for (let path = tooDeepAt(result, maxDepth); path; path = tooDeepAt(result, maxDepth)) {
    const issue = issues.length < MAX_CUTS ? cut(method, result, path, maxDepth) : undefined;
    if (issue === undefined) {
      const reason = `a ${method} result nesting deeper than ${maxDepth} levels (at ${formatJsonPath(path, 4)})`;
      return { kind: "refused", reason };
    }
    issues.push(issue);
  }
  return { kind: "ok", issues };
}

/** Where a server request or notification nests too deep, if it does. */
export function paramsTooDeep(params: unknown, maxDepth: number): string | undefined {
  const path = tooDeepAt(params, maxDepth);
  return path === undefined ? undefined : `params.${tooDeep(path, 0, maxDepth)}`;
}
