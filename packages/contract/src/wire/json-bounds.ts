/**
 * JSON from the other side of a connection is hostile: it may nest thousands of levels deep, and any
 * recursive walk of it (`JSON.stringify`, `structuredClone`, a recursive
 * compare) then dies with a stack overflow that takes the whole process down.
 * These helpers walk with an explicit stack, never the call stack, so they
 * are safe on anything `JSON.parse` produced; edges use `tooDeepAt` to refuse
 * what nests deeper than they allow, and hot paths compare with `sameJson`.
 */

/**
 * Deepest nesting accepted in what the other side sends (levels below a message's
 * result or params), on both sides of the bridge: room for a JSON Schema some
 * 60 properties deep, far from where a recursive walk overflows the stack.
 */
export const MAX_JSON_DEPTH = 128;

/** Where a value sits inside a JSON document: object keys and array indexes from the top. */
export type JsonPath = readonly (string | number)[];

interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

function pathOf(visit: Visit): JsonPath {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

function childrenOf(value: object): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
}

/**
 * Whether anything below `value` nests more than `maxDepth` levels: the cheap
 * scan of every message, so it allocates nothing. It recurses, but never more
 * than `maxDepth + 1` calls deep whatever it is given: it stops descending
 * at the first container past the bound.
 */
function exceeds(value: unknown, maxDepth: number, depth = 0): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth > maxDepth) return true;
  if (Array.isArray(value)) {
    const items = value as unknown[];
    for (let index = 0; index < items.length; index++) if (exceeds(items[index], maxDepth, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (exceeds(record[key], maxDepth, depth + 1)) return true;
  return false;
}

/** The path to the first too-deep container, once `exceeds` said there is one. */
function firstTooDeep(value: unknown, maxDepth: number): JsonPath | undefined {
  const stack: Visit[] = [{ value, depth: 0, key: undefined, parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    if (typeof visit.value !== "object" || visit.value === null) continue;
    if (visit.depth > maxDepth) return pathOf(visit);
    for (const [key, child] of childrenOf(visit.value)) {
      if (typeof child === "object" && child !== null)
        stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return undefined;
}

/**
 * The path to the first object or array nested more than `maxDepth` levels
 * below `value` (the top is level 0), or undefined when none is. Iterative.
 */
export function tooDeepAt(value: unknown, maxDepth: number): JsonPath | undefined {
  return exceeds(value, maxDepth) ? firstTooDeep(value, maxDepth) : undefined;
}

function sameShape(a: object, b: object, pairs: [unknown, unknown][]): boolean {
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    a.forEach((item, index) => pairs.push([item, b[index]]));
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key)) return false;
    pairs.push([left[key], right[key]]);
  }
  return true;
}

/**
 * Whether two JSON values are equal (key order aside), without recursion.
 * A subtree both sides share is equal at once, so comparing a list with its
 * lightly changed copy costs only what changed.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const pairs: [unknown, unknown][] = [[a, b]];
  for (let pair = pairs.pop(); pair; pair = pairs.pop()) {
    const [left, right] = pair;
    if (left === right) continue;
    if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) {
      if (!(Number.isNaN(left) && Number.isNaN(right))) return false;
      continue;
    }
    if (!sameShape(left, right, pairs)) return false;
  }
  return true;
}

/** A path for a message: `inputSchema.properties.a…` (its first `keep` steps). */
export function formatJsonPath(path: JsonPath, keep = 6): string {
  const shown = path
    .slice(0, keep)
    .map((step, index) => (typeof step === "number" ? `[${step}]` : `${index === 0 ? "" : "."}${step}`))
    .join("");
  return path.length > keep ? `${shown}…` : shown || "(the top)";
}
