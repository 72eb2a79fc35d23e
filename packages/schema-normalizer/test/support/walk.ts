/** Helpers for inspecting normalized output. */

/** Every object node reachable from `value`, with the key path to it. */
export function* objectsIn(value: unknown, path: string[] = []): Generator<{ node: object; path: string[] }> {
  if (typeof value !== "object" || value === null) return;
  yield { node: value, path };
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, child] of entries) yield* objectsIn(child, [...path, key]);
}

/** Every schema node (not data values such as enum entries) of a normalized schema. */
export function* schemaNodes(
  schema: Record<string, unknown>,
  path: string[] = [],
): Generator<{ node: Record<string, unknown>; path: string[] }> {
  yield { node: schema, path };
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties)
    for (const [key, child] of Object.entries(properties)) yield* schemaNodes(child, [...path, "properties", key]);
  if (schema.items && typeof schema.items === "object")
    yield* schemaNodes(schema.items as Record<string, unknown>, [...path, "items"]);
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    yield* schemaNodes(schema.additionalProperties as Record<string, unknown>, [...path, "additionalProperties"]);
  }
  if (Array.isArray(schema.anyOf)) {
    for (const [index, branch] of (schema.anyOf as Record<string, unknown>[]).entries())
      yield* schemaNodes(branch, [...path, "anyOf", String(index)]);
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Nesting depth of a JSON value (a scalar is 0). */
export function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}
