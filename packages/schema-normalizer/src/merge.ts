/**
 * Combining normalized nodes. Every combinator here may widen (accept more
 * values than the exact combination) but never narrows: an argument valid
 * under the inputs stays valid under the result. That is the invariant the
 * corpus test checks.
 */
import { appliesTo, isJsonType, type JsonType } from "./keywords";
import { canonicalKey, isPermissive, type SchemaNode } from "./node";
import { setOwn } from "./read";

const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

const CONFLICT = Symbol("conflict");

/** Both values must hold: keep the stricter, or the first when they cannot combine. */
function combine(key: string, first: unknown, second: unknown): unknown {
  const bound = stricterBound(key, first, second);
  if (bound !== undefined) return bound;
  switch (key) {
    case "type":
      return combineTypes(first, second);
    case "properties":
      return intersectProperties(first as SchemaNode, second as SchemaNode);
    case "required":
      return [...new Set([...(first as string[]), ...(second as string[])])];
    case "items":
      return intersect([first as SchemaNode, second as SchemaNode]);
    case "additionalProperties":
      return combineAdditional(first, second);
    case "enum":
      return combineEnums(first as unknown[], second as unknown[]);
    case "uniqueItems":
      return first === true || second === true;
    case "nullable":
      return first === true && second === true;
    default:
      return first; // annotations, anyOf, pattern, format, multipleOf: keeping one conjunct is sound
  }
}

/** Two numeric bounds of one kind: the stricter; undefined when `key` is no bound or a value no number. */
function stricterBound(key: string, first: unknown, second: unknown): number | undefined {
  if (typeof first !== "number" || typeof second !== "number") return undefined;
  if (LOWER_BOUNDS.has(key)) return Math.max(first, second);
  if (UPPER_BOUNDS.has(key)) return Math.min(first, second);
  return undefined;
}

function combineTypes(first: unknown, second: unknown): unknown {
  if (first === second) return first;
  if ((first === "integer" && second === "number") || (first === "number" && second === "integer")) return "integer";
  return CONFLICT; // no value has both types; dropping the keyword widens
}

function combineAdditional(first: unknown, second: unknown): unknown {
  if (first === false || second === false) return false;
  if (first === true) return second;
  if (second === true) return first;
  return intersect([first as SchemaNode, second as SchemaNode]);
}

function combineEnums(first: unknown[], second: unknown[]): unknown[] {
  const allowed = new Set(second.map(canonicalKey));
  const both = first.filter((value) => allowed.has(canonicalKey(value)));
  return both.length > 0 ? both : first;
}

function intersectProperties(first: SchemaNode, second: SchemaNode): SchemaNode {
  const out: SchemaNode = {};
  for (const key of Object.keys(first)) setOwn(out, key, first[key]);
  for (const key of Object.keys(second)) {
    const value = second[key] as SchemaNode;
    setOwn(out, key, Object.hasOwn(out, key) ? intersect([out[key] as SchemaNode, value]) : value);
  }
  return out;
}

/** Removes keywords that cannot constrain a value of the node's type. */
export function pruneForType(node: SchemaNode): SchemaNode {
  const type = node.type;
  if (!isJsonType(type)) return node;
  const out: SchemaNode = {};
  for (const key of Object.keys(node)) {
    if (appliesTo(type, key) || key === "nullable") setOwn(out, key, node[key]);
  }
  return ensureStructure(out, type);
}

/** Objects always carry `properties`, arrays always carry `items` (providers insist). */
function ensureStructure(node: SchemaNode, type: JsonType): SchemaNode {
  if (type === "object" && node.properties === undefined) node.properties = {};
  if (type === "array" && node.items === undefined) node.items = {};
  return node;
}

/** allOf: a value must satisfy every node. Key order: first node's, then new keys. */
export function intersect(nodes: readonly SchemaNode[]): SchemaNode {
  const relevant = nodes.filter((node, index) => index === 0 || !isPermissive(node) || node.description !== undefined);
  if (relevant.length === 1) return relevant[0]!;
  const out: SchemaNode = {};
  const conflicts = new Set<string>();
  for (const node of relevant) {
    for (const key of Object.keys(node)) {
      if (!Object.hasOwn(out, key)) {
        setOwn(out, key, node[key]);
        continue;
      }
      const combined = combine(key, out[key], node[key]);
      if (combined === CONFLICT) conflicts.add(key);
      else setOwn(out, key, combined);
    }
  }
  for (const key of conflicts) delete out[key];
  if (Array.isArray(out.required)) {
    const declared = (out.properties ?? {}) as SchemaNode;
    const required = (out.required as string[]).filter((name) => Object.hasOwn(declared, name));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return pruneForType(out);
}

/** anyOf: flattened, de-duplicated; `{}` when any branch accepts everything. */
export function anyOfOf(branches: readonly SchemaNode[]): SchemaNode {
  const flat: SchemaNode[] = [];
  for (const branch of branches) {
    const keys = Object.keys(branch);
    if (
      Array.isArray(branch.anyOf) &&
      keys.every((key) => key === "anyOf" || key === "title" || key === "description")
    ) {
      flat.push(...(branch.anyOf as SchemaNode[]));
    } else {
      flat.push(branch);
    }
  }
  const seen = new Set<string>();
  const distinct: SchemaNode[] = [];
  for (const branch of flat) {
    if (isPermissive(branch)) return {};
    const key = canonicalKey(branch);
    if (!seen.has(key)) {
      seen.add(key);
      distinct.push(branch);
    }
  }
  if (distinct.length === 0) return {};
  if (distinct.length === 1) return distinct[0]!;
  return mergeEnumBranches(distinct) ?? { anyOf: distinct };
}

/** A union of literals (`z.literal("a").or(z.literal("b"))`) is one `enum`. */
function mergeEnumBranches(branches: readonly SchemaNode[]): SchemaNode | undefined {
  const type = branches[0]!.type;
  for (const branch of branches) {
    if (!Array.isArray(branch.enum) || branch.type !== type) return undefined;
    for (const key of Object.keys(branch)) if (key !== "enum" && key !== "type") return undefined;
  }
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const branch of branches) {
    for (const value of branch.enum as unknown[]) {
      const key = canonicalKey(value);
      if (!seen.has(key)) {
        seen.add(key);
        values.push(value);
      }
    }
  }
  return type === undefined ? { enum: values } : { type, enum: values };
}

/**
 * One object that accepts every branch's objects (a root-level union, which
 * no provider accepts as `parameters`). A key's schema is the anyOf of the
 * schemas the branches declaring it give it; `required` keeps only the keys
 * every branch requires; `additionalProperties: false` survives only when
 * every branch is closed.
 */
export function unionObjects(branches: readonly SchemaNode[]): SchemaNode {
  const byKey = new Map<string, SchemaNode[]>();
  for (const branch of branches) {
    const properties = (branch.properties ?? {}) as SchemaNode;
    for (const key of Object.keys(properties)) {
      const list = byKey.get(key);
      if (list) list.push(properties[key] as SchemaNode);
      else byKey.set(key, [properties[key] as SchemaNode]);
    }
  }
  const properties: SchemaNode = {};
  for (const [key, schemas] of byKey) setOwn(properties, key, anyOfOf(schemas));
  const out: SchemaNode = { type: "object", properties };
  let required: string[] | undefined;
  for (const branch of branches) {
    const list = Array.isArray(branch.required) ? (branch.required as string[]) : [];
    required = required === undefined ? [...list] : required.filter((name) => list.includes(name));
  }
  if (required && required.length > 0) out.required = required;
  if (branches.every((branch) => branch.additionalProperties === false)) out.additionalProperties = false;
  return out;
}
