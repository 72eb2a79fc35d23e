/**
 * `normalizeSchema`: an untrusted MCP `inputSchema` in, the defensive subset a
 * model provider accepts out. Pure and total: it never throws, never mutates
 * its argument, and whatever it is given it returns an object schema.
 */
import type { JsonSchema } from "@indus/contract";
import { toGemini } from "./gemini";
import { intersect, pruneForType, unionObjects } from "./merge";
import type { SchemaNode } from "./node";
import { resolveOptions, type NormalizeOptions } from "./options";
import { elementsUpTo, isArray, isRecordLike, ownProperty, setOwn } from "./read";
import { SchemaWalker } from "./walker";

/** The spec's fallback: an object with no declared parameters. */
function fallback(): SchemaNode {
  return { type: "object", properties: {} };
}

/**
 * The spec's top-level dispatch: a declared type that is not `object` (or a
 * list without `object`), or one that is not a type at all, falls back.
 */
function rootDeclaresNonObject(input: object): boolean {
  const type = ownProperty(input, "type");
  if (type === undefined) return false;
  if (typeof type === "string") return type !== "object";
  if (isArray(type)) return !elementsUpTo(type, 64).elements.includes("object");
  return true;
}

function isObjectBranch(node: SchemaNode): boolean {
  // MCP arguments are always an object, so a typeless branch is an object one.
  return node.type === undefined || node.type === "object";
}

/** `type: "object"` first, `properties` present, no root-level combinator. */
function asRootObject(node: SchemaNode): SchemaNode {
  if (node.type !== undefined && node.type !== "object") {
    // A root `$ref` may land on a non-object, or a type list may have split.
    if (!Array.isArray(node.anyOf)) return fallback();
  }
  const own: SchemaNode = {};
  for (const key of Object.keys(node)) if (key !== "anyOf" && key !== "type") setOwn(own, key, node[key]);
  let root = own;
  if (Array.isArray(node.anyOf)) {
    const objects = (node.anyOf as SchemaNode[]).filter(isObjectBranch);
    if (objects.length === 0) return fallback();
    root = intersect([own, unionObjects(objects)]);
  }
  const shaped: SchemaNode = { type: "object" };
  for (const key of Object.keys(root)) if (key !== "type") setOwn(shaped, key, root[key]);
  return pruneForType(shaped);
}

/**
 * Normalizes an MCP tool's `inputSchema` for a model provider.
 *
 * ```ts
 * normalizeSchema({ type: "object", properties: { path: { type: "string", default: "/tmp" } } });
 * // { type: "object", properties: { path: { type: "string" } } }
 * ```
 */
export function normalizeSchema(input: unknown, options?: NormalizeOptions): JsonSchema {
  try {
    const resolved = resolveOptions(options);
    if (!isRecordLike(input) || rootDeclaresNonObject(input)) return fallback();
    const walker = new SchemaWalker(input, resolved);
    const root = asRootObject(walker.node(input, 0));
    return resolved.target === "gemini" ? toGemini(root) : root;
  } catch {
    // Unreachable by design (every read is guarded); kept so the promise of
    // totality does not rest on that claim alone.
    return fallback();
  }
}
