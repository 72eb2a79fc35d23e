/**
 * A small fast-check generator of arguments from an (original, untrusted)
 * JSON Schema. It aims at valid values but need not be exact: the property
 * tests keep only the values the original schema's own validator accepts.
 */
import fc from "fast-check";

type Schema = Record<string, unknown>;
type Arb = fc.Arbitrary<unknown>;

const isRecord = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Follows a local `$ref` (`#`, `#/$defs/x`, any JSON Pointer). */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = root;
  for (const raw of decodeURIComponent(ref.slice(2)).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isRecord(current)) current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    else return undefined;
  }
  return current;
}

const anyJson = (depth: number): Arb =>
  depth > 3
    ? fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null))
    : fc.jsonValue({ maxDepth: 2 });

const NON_REF_KEYS = (schema: Schema) => {
  const { $ref: _ref, ...rest } = schema;
  return rest;
};

function stringArb(schema: Schema): Arb {
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : Math.max(minLength, 12);
  if (typeof schema.pattern === "string") {
    // Length bounds are left to the validator filter: a pattern may not fit them often.
    return fc.stringMatching(new RegExp(schema.pattern, "u"));
  }
  switch (schema.format) {
    case "email":
      return fc.emailAddress();
    case "uri":
    case "url":
      return fc.stringMatching(/^https:\/\/[a-z]{1,8}\.example\/[a-z0-9]{0,8}$/);
    case "uuid":
      return fc.uuid();
    case "date-time":
      return fc
        .date({ min: new Date(0), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
        .map((date) => date.toISOString());
    case "date":
      return fc
        .date({ min: new Date(0), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    default:
      return fc.string({ minLength, maxLength });
  }
}

function numberArb(schema: Schema, integer: boolean): Arb {
  const num = (key: string) => (typeof schema[key] === "number" ? schema[key] : undefined);
  let min = num("minimum") ?? num("exclusiveMinimum");
  const max = num("maximum") ?? num("exclusiveMaximum");
  const minExcluded = num("minimum") === undefined && num("exclusiveMinimum") !== undefined;
  const maxExcluded = num("maximum") === undefined && num("exclusiveMaximum") !== undefined;
  if (schema.exclusiveMinimum === true) min = num("minimum");
  if (integer) {
    const lo = Math.max(-1e6, min === undefined ? -1e6 : minExcluded ? Math.floor(min) + 1 : Math.ceil(min));
    const hi = Math.min(1e6, max === undefined ? 1e6 : maxExcluded ? Math.ceil(max) - 1 : Math.floor(max));
    const multiple = num("multipleOf");
    if (multiple !== undefined && Number.isInteger(multiple)) {
      return fc.integer({ min: Math.ceil(lo / multiple), max: Math.floor(hi / multiple) }).map((k) => k * multiple);
    }
    return fc.integer({ min: lo, max: Math.max(lo, hi) });
  }
  const multiple = num("multipleOf");
  if (multiple !== undefined) return fc.integer({ min: -1000, max: 1000 }).map((k) => k * multiple);
  return fc.double({
    min: Math.max(min ?? -1e6, -1e6),
    max: Math.min(max ?? 1e6, 1e6),
    minExcluded,
    maxExcluded,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectArb(schema: Schema, root: unknown, depth: number): Arb {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const requiredNames = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((name): name is string => typeof name === "string")
    : [];
  const required = requiredNames.filter((name) => Object.hasOwn(properties, name));
  // A required key the schema never declares may hold anything.
  const undeclared = requiredNames.filter((name) => !Object.hasOwn(properties, name));
  // Deep in a recursive schema, only the required keys, so generation ends.
  const keys = Object.keys(properties).filter((key) => depth < 3 || required.includes(key));
  if (keys.length === 0 && isRecord(schema.additionalProperties)) {
    return fc.dictionary(
      fc.string({ minLength: 1, maxLength: 5 }),
      generate(schema.additionalProperties, root, depth + 1),
      {
        maxKeys: 3,
      },
    );
  }
  const model: Record<string, Arb> = {};
  for (const key of keys) model[key] = generate(properties[key], root, depth + 1);
  for (const key of undeclared) model[key] = anyJson(depth + 1);
  const record = fc.record(model, { requiredKeys: [...required.filter((key) => keys.includes(key)), ...undeclared] });
  // Keys a patternProperties entry admits beyond the declared ones.
  const patterns = isRecord(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  if (patterns.length === 0) return record;
  const extras = fc.oneof(
    ...patterns.map(([pattern, sub]) =>
      fc.dictionary(fc.stringMatching(new RegExp(pattern, "u")), generate(sub, root, depth + 1), { maxKeys: 2 }),
    ),
  );
  return fc.tuple(extras, record).map(([extra, declared]) => ({ ...extra, ...declared }));
}

function arrayArb(schema: Schema, root: unknown, depth: number): Arb {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  if (tuple) {
    const entries = (tuple as unknown[]).map((entry) => generate(entry, root, depth + 1));
    return fc.tuple(...entries);
  }
  const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
  const maxLength = Math.min(
    typeof schema.maxItems === "number" ? schema.maxItems : 3,
    minLength + 3,
    depth > 2 ? minLength : 99,
  );
  const items = generate(schema.items ?? true, root, depth + 1);
  return schema.uniqueItems === true
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
    : fc.array(items, { minLength, maxLength });
}

function typed(schema: Schema, type: string, root: unknown, depth: number): Arb {
  switch (type) {
    case "object":
      return objectArb(schema, root, depth);
    case "array":
      return arrayArb(schema, root, depth);
    case "string":
      return stringArb(schema);
    case "number":
      return numberArb(schema, false);
    case "integer":
      return numberArb(schema, true);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return anyJson(depth);
  }
}

export function generate(schema: unknown, root: unknown, depth = 0): Arb {
  if (!isRecord(schema)) return anyJson(depth);
  if (depth > 8) return fc.constant(null);
  if (typeof schema.$ref === "string") {
    const target = resolvePointer(root, schema.$ref);
    const rest = NON_REF_KEYS(schema);
    return generate(isRecord(target) ? { ...rest, ...target } : rest, root, depth + 1);
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [key]: _omit, ...rest } = schema;
      return fc.oneof(
        ...branches.map((branch) => generate(isRecord(branch) ? { ...rest, ...branch } : branch, root, depth)),
      );
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const { allOf, ...rest } = schema;
    const merged: Schema = { ...rest };
    for (const branch of allOf as unknown[]) {
      if (!isRecord(branch)) continue;
      const resolved = typeof branch.$ref === "string" ? (resolvePointer(root, branch.$ref) as Schema) : branch;
      Object.assign(merged, resolved, {
        properties: { ...(merged.properties as Schema), ...(resolved.properties as Schema) },
        required: [...((merged.required as string[]) ?? []), ...((resolved.required as string[]) ?? [])],
      });
    }
    return generate(merged, root, depth);
  }
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((entry) => typed(schema, String(entry), root, depth)));
  if (schema.nullable === true && typeof type === "string") {
    return fc.oneof(fc.constant(null), typed(schema, type, root, depth));
  }
  if (typeof type === "string") return typed(schema, type, root, depth);
  if (isRecord(schema.properties)) return objectArb(schema, root, depth);
  if (schema.items !== undefined || schema.prefixItems !== undefined) return arrayArb(schema, root, depth);
  return anyJson(depth);
}
