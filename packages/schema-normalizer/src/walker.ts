/**
 * The walk: one pass over an untrusted schema that emits the portable form.
 * Every entry costs one node of budget and one level of depth; past either
 * bound, or on a cycle, a subschema becomes `{}` (accepts anything), which
 * widens but never rejects an argument the original accepted.
 */
import { PORTABLE_KEYWORDS, appliesTo, isJsonType, valueHasType, type JsonType } from "./keywords";
import { anyOfOf, intersect } from "./merge";
import { annotationsOf, type SchemaNode } from "./node";
import type { ResolvedOptions } from "./options";
import { copyDataValues } from "./data-values";
import { arrayKeyword } from "./families/arrays";
import { combinatorKeyword } from "./families/combinators";
import { generalKeyword } from "./families/general";
import { numericKeyword } from "./families/numbers";
import { objectKeyword } from "./families/objects";
import type { BodyPlan, Emitted, Walk } from "./families/plan";
import { stringOrCountKeyword } from "./families/strings";
import { UNRESOLVED, resolveLocalRef } from "./pointer";
import {
  elementsUpTo,
  isArray,
  isCount,
  isRecordLike,
  ownKeys,
  ownProperty,
  setOwn,
  snapshot,
  type Snapshot,
} from "./read";

/** Longer `type` lists are treated as no type constraint (there are only seven types). */
const MAX_TYPE_LIST = 64;

/** The keys a node is read for; any other key is skipped without being read. */
const READ_KEYS: ReadonlySet<string> = new Set([
  ...PORTABLE_KEYWORDS,
  "$ref",
  "oneOf",
  "allOf",
  "const",
  "nullable",
  "prefixItems",
  "additionalItems",
  "patternProperties",
]);

/** The declared types, or undefined for a typeless node (unknown names are ignored). */
function declaredTypes(node: Snapshot): JsonType[] | undefined {
  const raw = node.type;
  let types: JsonType[] | undefined;
  if (isJsonType(raw)) types = [raw];
  else if (isArray(raw)) {
    // Ignoring part of a type list would narrow it: an over-long list is no constraint.
    const { elements, complete } = elementsUpTo(raw, MAX_TYPE_LIST);
    const list = [...new Set(elements.filter(isJsonType))];
    types = complete && list.length > 0 ? list : undefined;
  }
  // OpenAPI 3.0's `nullable: true` is JSON Schema's `type: [T, "null"]`.
  if (types && node.nullable === true && !types.includes("null")) types = [...types, "null"];
  return types;
}

export class SchemaWalker implements Walk {
  private visited = 0;
  /**
   * How often each input object is open on the current path. A `$ref` back
   * into an enclosing schema and a cyclic JS object are the same thing, a
   * recursive schema, and both are unrolled `maxRecursion` times, then `{}`.
   */
  private readonly open = new Map<object, number>();
  private readonly resolved = new Map<string, unknown>();
  /** Draft-07 and older ignore a `$ref`'s siblings; 2019-09 and later apply them. */
  private readonly refSiblingsIgnored: boolean;

  constructor(
    private readonly root: object,
    private readonly options: ResolvedOptions,
  ) {
    const dialect = ownProperty(root, "$schema");
    this.refSiblingsIgnored = typeof dialect === "string" && /draft-0[0-7]\b/.test(dialect);
  }

  private hasBudget(): boolean {
    return this.visited < this.options.maxNodes;
  }

  remaining(): number {
    return this.options.maxNodes - this.visited;
  }

  /** Normalizes one subschema found at `depth`. */
  node(raw: unknown, depth: number): SchemaNode {
    if (depth > this.options.maxDepth || !this.hasBudget()) return {};
    this.visited++;
    if (!isRecordLike(raw)) return {};
    const entered = this.open.get(raw) ?? 0;
    if (entered > this.options.maxRecursion) return {};
    this.open.set(raw, entered + 1);
    try {
      const record = snapshot(raw, READ_KEYS);
      return typeof record.$ref === "string" ? this.reference(record, depth) : this.shape(record, depth);
    } finally {
      if (entered === 0) this.open.delete(raw);
      else this.open.set(raw, entered);
    }
  }

  private resolve(ref: string): unknown {
    if (this.resolved.has(ref)) return this.resolved.get(ref);
    const target = resolveLocalRef(this.root, ref);
    this.resolved.set(ref, target);
    return target;
  }

  /** Inlines a local `$ref` (the recursion bound lives in `node`); anything else widens to `{}`. */
  private reference(record: Snapshot, depth: number): SchemaNode {
    const { $ref: ref, ...siblings } = record;
    const here =
      Object.keys(siblings).length === 0
        ? undefined
        : this.refSiblingsIgnored
          ? annotationsOf(siblings)
          : this.shape(siblings, depth);
    const target = this.resolve(ref as string);
    if (target === UNRESOLVED || !isRecordLike(target)) return here ?? {};
    // A hop counts as a level, so a 10,000-long chain of references stops at maxDepth.
    const inlined = this.node(target, depth + 1);
    return here === undefined ? inlined : intersect([here, inlined]);
  }

  /** Dispatches on the declared type; a type list becomes an anyOf of typed branches. */
  private shape(record: Snapshot, depth: number): SchemaNode {
    const types = declaredTypes(record);
    if (types === undefined) return this.body(record, undefined, depth, true);
    if (types.length === 1) return this.body(record, types[0], depth, true);
    const constrained = this.dataValues(record, undefined);
    const branches: SchemaNode[] = [];
    for (const type of types) {
      if (constrained && !constrained.some((value) => valueHasType(value, type))) continue;
      branches.push(this.body(record, type, depth + 1, false));
    }
    return intersect([annotationsOf(record), anyOfOf(branches)]);
  }

  /**
   * `enum` and `const` as plain JSON values, filtered to `type`. Values no JSON
   * argument can equal (functions, NaN, Dates, cycles) are dropped; when the
   * list is too big to copy within budget the constraint is dropped instead.
   */
  private dataValues(record: Snapshot, type: JsonType | undefined): unknown[] | undefined {
    if (!isArray(record.enum) && record.const === undefined) return undefined;
    const available = Math.max(0, this.options.maxNodes - this.visited);
    const budget = { remaining: available };
    try {
      return copyDataValues(record, type, budget, this.options.maxDepth);
    } finally {
      // Copied values spend the same node budget subschemas do.
      this.visited += available - Math.max(0, budget.remaining);
    }
  }

  /** The collapsed single `items` schema of a tuple (see README: tuples). */
  private tupleItems(entries: readonly unknown[], tail: unknown, maxItems: unknown, depth: number): SchemaNode {
    const closedAt = isCount(maxItems) ? maxItems : Number.POSITIVE_INFINITY;
    const nodes = entries.slice(0, Math.min(entries.length, closedAt)).map((entry) => this.node(entry, depth + 1));
    if (closedAt > entries.length) {
      if (tail === undefined || tail === true) nodes.push({});
      else if (tail !== false) nodes.push(this.node(tail, depth + 1));
    }
    return anyOfOf(nodes);
  }

  /** Schemas of a list keyword within budget; undefined when the budget cannot cover them. */
  schemaList(value: readonly unknown[]): unknown[] | undefined {
    const { elements, complete } = elementsUpTo(value, this.options.maxNodes - this.visited + 1);
    return complete ? elements : undefined;
  }

  private items(record: Snapshot, depth: number): SchemaNode | undefined {
    const { items, prefixItems } = record;
    const tuple = isArray(prefixItems) ? prefixItems : isArray(items) ? items : undefined;
    if (tuple !== undefined) {
      // Dropping tuple entries would narrow the union they collapse to.
      const entries = this.schemaList(tuple);
      if (entries === undefined) return {};
      return this.tupleItems(entries, tuple === prefixItems ? items : record.additionalItems, record.maxItems, depth);
    }
    if (items !== undefined) return this.node(items, depth + 1);
    return undefined;
  }

  /** One node of one type (or typeless), keywords in input order. */
  private body(record: Snapshot, type: JsonType | undefined, depth: number, withAnnotations: boolean): SchemaNode {
    const plan = this.plan(record, type, depth, withAnnotations);
    const emitted: Emitted = { out: {}, pending: [], anyOf: false, values: false, items: false };
    for (const key of Object.keys(record)) {
      const value = record[key];
      // Each family claims its keywords; the order here does not matter, the input order does.
      if (generalKeyword(key, value, plan, emitted)) continue;
      if (combinatorKeyword(key, value, plan, emitted)) continue;
      if (objectKeyword(key, value, plan, emitted)) continue;
      if (arrayKeyword(key, value, plan, emitted)) continue;
      if (numericKeyword(key, value, plan, emitted.out)) continue;
      stringOrCountKeyword(key, value, plan, emitted.out);
    }
    const { out, pending } = emitted;
    if (type !== undefined && out.type === undefined) {
      return intersect([{ type }, out, ...pending]);
    }
    return pending.length > 0 ? intersect([out, ...pending]) : out;
  }

  /**
   * What `body` works out before it walks the keywords: the subschemas that
   * several keywords share (properties with required, enum with const, the
   * array forms of items), in the order that spends budget as before.
   */
  private plan(record: Snapshot, type: JsonType | undefined, depth: number, withAnnotations: boolean): BodyPlan {
    const applies = (keyword: string) => appliesTo(type, keyword);
    const { properties, propertiesCut } = applies("properties")
      ? this.properties(record, depth)
      : { properties: undefined, propertiesCut: false };
    const required = properties ? this.required(record, properties) : undefined;
    const values = this.dataValues(record, type);
    const items = applies("items") ? this.items(record, depth) : undefined;
    return {
      record,
      type,
      depth,
      withAnnotations,
      applies,
      properties,
      propertiesCut,
      required,
      values,
      items,
      walk: this,
    };
  }

  /** Each declared property's subschema, until the budget runs out (then `propertiesCut`). */
  private properties(record: Snapshot, depth: number): { properties?: SchemaNode; propertiesCut: boolean } {
    if (!isRecordLike(record.properties)) return { propertiesCut: false };
    const properties: SchemaNode = {};
    const declared = record.properties;
    for (const key of ownKeys(declared)) {
      if (!this.hasBudget()) return { properties, propertiesCut: true };
      const schema = ownProperty(declared, key);
      if (schema !== undefined) setOwn(properties, key, this.node(schema, depth + 1));
    }
    return { properties, propertiesCut: false };
  }

  /** The required names that are declared properties. */
  private required(record: Snapshot, properties: SchemaNode): string[] | undefined {
    if (!isArray(record.required)) return undefined;
    const names = new Set<string>();
    // Reading only part of `required` drops constraints, which widens: fine.
    for (const name of elementsUpTo(record.required, this.options.maxNodes).elements) {
      if (typeof name === "string" && Object.hasOwn(properties, name)) names.add(name);
    }
    return names.size > 0 ? [...names] : undefined;
  }
}
