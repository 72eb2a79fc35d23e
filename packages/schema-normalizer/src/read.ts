/**
 * Reading untrusted values without being hurt by them. A schema may arrive as
 * anything: a Proxy whose traps throw, an object with getters, a cycle, a class
 * instance. These helpers never throw and never run an accessor.
 */

/** A snapshot of an object's own enumerable data properties, in key order. */
export type Snapshot = Record<string, unknown>;

/** Non-null, non-array object (a class instance counts; a function does not). */
export function isRecordLike(value: unknown): value is object {
  try {
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false; // Array.isArray throws on a revoked Proxy
  }
}

export function isArray(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** Own enumerable string keys, in order ([] when they cannot be listed). */
export function ownKeys(value: object): string[] {
  try {
    return Object.keys(value);
  } catch {
    return [];
  }
}

/**
 * The wanted own enumerable data properties, in key order. Accessors are
 * skipped, never called; unwanted keys are not even read. `wanted` never
 * holds `__proto__`, so a plain (fast) object is safe here.
 */
export function snapshot(value: object, wanted: ReadonlySet<string>): Snapshot {
  const record: Snapshot = {};
  for (const key of ownKeys(value)) {
    if (!wanted.has(key) || key === "__proto__") continue;
    const read = ownProperty(value, key);
    if (read !== undefined) record[key] = read;
  }
  return record;
}

/**
 * Up to `limit` elements of an array, read without invoking accessors;
 * `complete` is false when the array is longer (callers decide whether
 * ignoring the rest widens, which is fine, or narrows, which is not).
 */
export function elementsUpTo(value: readonly unknown[], limit: number): { elements: unknown[]; complete: boolean } {
  let length: number;
  try {
    const descriptor = Object.getOwnPropertyDescriptor(value, "length");
    length = descriptor !== undefined && typeof descriptor.value === "number" ? descriptor.value : 0;
  } catch {
    return { elements: [], complete: true };
  }
  const count = Math.min(length, Math.max(0, limit));
  const elements: unknown[] = new Array(count);
  for (let index = 0; index < count; index++) elements[index] = ownProperty(value, String(index));
  return { elements, complete: count === length };
}

/** Own data property `key`, or undefined (used to walk `$ref` pointers). */
export function ownProperty(value: object, key: string): unknown {
  try {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/** Sets an own property even when the key is `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A non-negative integer count (`minLength`, `maxItems`, ...). */
export function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** `-0` becomes `0` so the output survives a JSON round trip unchanged. */
export function plainNumber(value: number): number {
  return value === 0 ? 0 : value;
}

/** Why a value could not be copied as JSON. */
export const UNREPRESENTABLE = Symbol("unrepresentable");
export const TOO_BIG = Symbol("too-big");

function plainPrototype(value: object): boolean {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

/**
 * Copies a data value (an `enum` entry, a `const`) as plain JSON.
 * UNREPRESENTABLE: no JSON argument can ever equal it (a function, NaN, a Date,
 * a cycle), so dropping it loses nothing. TOO_BIG: it is JSON but exceeds the
 * depth or node budget, so the caller must drop the whole keyword, not the value.
 */
export function copyJsonValue(value: unknown, maxDepth: number, budget: { remaining: number }): unknown {
  const ancestors = new Set<object>();
  const copy = (current: unknown, depth: number): unknown => {
    if (--budget.remaining < 0) return TOO_BIG;
    switch (typeof current) {
      case "string":
      case "boolean":
        return current;
      case "number":
        return Number.isFinite(current) ? plainNumber(current) : UNREPRESENTABLE;
      case "object":
        break;
      default:
        return UNREPRESENTABLE; // undefined, function, symbol, bigint
    }
    if (current === null) return null;
    if (depth >= maxDepth) return TOO_BIG;
    if (ancestors.has(current)) return UNREPRESENTABLE;
    ancestors.add(current);
    try {
      if (isArray(current)) {
        const { elements, complete } = elementsUpTo(current, budget.remaining + 1);
        if (!complete) return TOO_BIG;
        const out: unknown[] = [];
        for (const element of elements) {
          const copied = copy(element, depth + 1);
          if (copied === UNREPRESENTABLE || copied === TOO_BIG) return copied;
          out.push(copied);
        }
        return out;
      }
      if (!plainPrototype(current)) return UNREPRESENTABLE; // Date, Map, class instance
      const out: Record<string, unknown> = {};
      for (const key of ownKeys(current)) {
        const property = ownProperty(current, key);
        if (property === undefined) continue; // as JSON.stringify would
        const copied = copy(property, depth + 1);
        if (copied === UNREPRESENTABLE || copied === TOO_BIG) return copied;
        setOwn(out, key, copied);
      }
      return out;
    } finally {
      ancestors.delete(current);
    }
  };
  return copy(value, 0);
}
