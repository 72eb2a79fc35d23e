/**
 * Hostile input must not hurt: huge nesting, huge width, cycles, reference
 * bombs, non-JSON values, huge strings, throwing proxies and getters. Each
 * case checks the documented result (README, "Hostile input"). The blowups
 * are bounded by counting the reads of the input (work, not milliseconds, so
 * the bound holds on a loaded machine); the bench prints the times.
 */
import fc from "fast-check";
import { NORMALIZE_DEFAULTS, normalizeSchema, type NormalizeOptions } from "@indus/schema-normalizer";
import { counted } from "./support/counted";
import { depthOf } from "./support/walk";

jest.setTimeout(60_000);

type Schema = Record<string, unknown>;
const FALLBACK = { type: "object", properties: {} };

/** Reads of the input per visited subschema: 5 to 9 measured, so an unbounded walk of 10,000 levels is ~80,000. */
const READS_PER_NODE = 16;
/** Levels a walk visits at most: the root, maxDepth more, and the accept-anything leaf. */
const LEVELS = NORMALIZE_DEFAULTS.maxDepth + 2;

/** Normalizes `input` through read-counting proxies: the result and the reads it took. */
function normalizeCounted(input: Schema, options?: NormalizeOptions): { result: Schema; reads: number } {
  const view = counted(input);
  const result = normalizeSchema(view.input, options);
  return { result, reads: view.reads() };
}

function nest(depth: number, wrap: (inner: Schema) => Schema): Schema {
  let schema: Schema = { type: "string" };
  for (let level = 0; level < depth; level++) schema = wrap(schema);
  return schema;
}

describe("10,000 levels of nesting", () => {
  it("stops at maxDepth through properties, with no stack overflow", () => {
    const { result, reads } = normalizeCounted(nest(10_000, (inner) => ({ type: "object", properties: { a: inner } })));
    // 33 object levels (depth 0..32), the 34th is the accept-anything {}.
    let node = result;
    for (let level = 0; level <= NORMALIZE_DEFAULTS.maxDepth; level++) {
      expect(node.type).toBe("object");
      node = (node.properties as Record<string, Schema>).a!;
    }
    expect(node).toEqual({});
    expect(reads).toBeLessThanOrEqual(READS_PER_NODE * LEVELS);
  });

  it.each([
    ["items", (inner: Schema) => ({ type: "array", items: inner })],
    ["anyOf", (inner: Schema) => ({ anyOf: [inner, { type: "null" }] })],
    ["allOf", (inner: Schema) => ({ allOf: [inner] })],
    ["additionalProperties", (inner: Schema) => ({ type: "object", additionalProperties: inner })],
    ["$ref chains", undefined],
  ])("stops at maxDepth through %s", (_label, wrap) => {
    let input: Schema;
    if (wrap) {
      input = { type: "object", properties: { x: nest(10_000, wrap) } };
    } else {
      const defs: Schema = { d10000: { type: "string" } };
      for (let index = 0; index < 10_000; index++) defs[`d${index}`] = { $ref: `#/$defs/d${index + 1}` };
      input = { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs: defs };
    }
    const { result, reads } = normalizeCounted(input);
    expect(result.type).toBe("object");
    expect(Object.keys(result.properties as object)).toEqual(["x"]); // not the catch-all fallback
    expect(depthOf(result)).toBeLessThanOrEqual(2 * (NORMALIZE_DEFAULTS.maxDepth + 2));
    expect(reads).toBeLessThanOrEqual(READS_PER_NODE * LEVELS);
  });

  it("honours a smaller maxDepth and clamps an absurd one", () => {
    const deep = nest(100, (inner) => ({ type: "object", properties: { a: inner } }));
    expect(depthOf(normalizeSchema(deep, { maxDepth: 2 }))).toBe(2 * 3 + 1);
    // 1e9 is clamped to 256 levels, still far from a stack overflow (which the catch-all would hide as the fallback).
    const clamped = normalizeSchema(
      nest(10_000, (inner) => ({ type: "object", properties: { a: inner } })),
      { maxDepth: 1e9 },
    );
    expect(depthOf(clamped)).toBe(2 * 257 + 1);
    const nested = normalizeSchema(
      nest(10_000, (inner) => ({ anyOf: [{ type: "object", properties: { a: inner } }, { type: "null" }] })),
      {
        maxDepth: 256,
        maxNodes: 1_000_000,
      },
    );
    expect(nested).not.toEqual(FALLBACK);
  });
});

describe("100,000 properties", () => {
  const properties: Schema = {};
  for (let index = 0; index < 100_000; index++) properties[`p${index}`] = { type: "string" };
  const wide = { type: "object", properties, required: Object.keys(properties), additionalProperties: false };

  it("keeps the first maxNodes - 1, opens the object and keeps required to the kept keys", () => {
    const { result, reads } = normalizeCounted(wide);
    const kept = Object.keys(result.properties as object);
    expect(kept).toHaveLength(NORMALIZE_DEFAULTS.maxNodes - 1);
    expect(kept.slice(0, 3)).toEqual(["p0", "p1", "p2"]);
    expect(result.required).toEqual(kept);
    expect(result.additionalProperties).toBeUndefined(); // closed would reject the dropped keys
    // Listing the 100,000 keys reads each once; past that, only the kept subschemas are read.
    expect(reads).toBeLessThanOrEqual(100_000 + READS_PER_NODE * NORMALIZE_DEFAULTS.maxNodes);
  });

  it("keeps all of them when maxNodes allows", () => {
    expect(Object.keys(normalizeSchema(wide, { maxNodes: 200_000 }).properties as object)).toHaveLength(100_000);
  });

  it("drops a 1,000,000-value enum it cannot copy within budget (a widening)", () => {
    const values = Array.from({ length: 1_000_000 }, (_, index) => `v${index}`);
    const { result, reads } = normalizeCounted({ type: "object", properties: { e: { type: "string", enum: values } } });
    expect(result.properties).toEqual({ e: { type: "string" } });
    expect(reads).toBeLessThanOrEqual(READS_PER_NODE * NORMALIZE_DEFAULTS.maxNodes); // not a million
  });

  it("bounds a 2^30 $ref expansion by the node budget", () => {
    const defs: Schema = { l30: { type: "string" } };
    for (let index = 0; index < 30; index++) {
      defs[`l${index}`] = {
        type: "object",
        properties: { a: { $ref: `#/$defs/l${index + 1}` }, b: { $ref: `#/$defs/l${index + 1}` } },
      };
    }
    const { result, reads } = normalizeCounted({
      type: "object",
      properties: { x: { $ref: "#/$defs/l0" } },
      $defs: defs,
    });
    expect(JSON.stringify(result).length).toBeLessThan(1_000_000);
    expect(reads).toBeLessThanOrEqual(READS_PER_NODE * NORMALIZE_DEFAULTS.maxNodes);
  });
});

describe("cycles", () => {
  it("unrolls a cyclic JS object like a recursive $ref, maxRecursion times", () => {
    const cyclic: Schema = { type: "object", properties: {} };
    (cyclic.properties as Schema).self = cyclic;
    (cyclic.properties as Schema).list = { type: "array", items: cyclic };
    const out = normalizeSchema(cyclic, { maxRecursion: 0 });
    expect(out).toEqual({ type: "object", properties: { self: {}, list: { type: "array", items: {} } } });
    expect(JSON.stringify(normalizeSchema(cyclic))).toBeDefined(); // no cycle in the output
  });

  it("survives cycles in data values and in $defs", () => {
    const value: Schema = {};
    value.self = value;
    const defs: Schema = {};
    defs.loop = defs;
    const out = normalizeSchema({
      type: "object",
      properties: { e: { enum: [value, "ok"] }, r: { $ref: "#/$defs/loop" } },
      $defs: defs,
    });
    expect(out.properties).toEqual({ e: { enum: ["ok"] }, r: {} });
  });
});

describe("non-JSON values", () => {
  class Instance {
    type = "object";
    properties = { a: { type: "string" } };
  }

  it.each([
    ["undefined", undefined],
    ["a function", () => ({ type: "object" })],
    ["a symbol", Symbol("schema")],
    ["a bigint", 10n],
    ["NaN", Number.NaN],
    ["Infinity", Infinity],
    ["a Date", new Date(0)],
    ["a Map", new Map([["type", "object"]])],
  ])("%s as the schema gives the fallback", (_label, input) => {
    expect(normalizeSchema(input)).toEqual(FALLBACK);
  });

  it("reads a class instance by its own enumerable fields, as JSON.stringify would", () => {
    expect(normalizeSchema(new Instance())).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it("treats non-JSON subschemas as accept-anything and drops non-JSON keyword values", () => {
    const out = normalizeSchema({
      type: "object",
      properties: {
        f: () => 1,
        s: Symbol("s"),
        b: 1n,
        u: undefined,
        n: Number.NaN,
        d: new Date(0),
        k: { type: Symbol("t"), minimum: 1n },
        c: { type: "integer", minimum: -0, maximum: Number.NaN, maxLength: 3, const: Symbol("x") },
      },
      required: ["f", "u", Symbol("r")],
    });
    expect(out).toStrictEqual({
      type: "object",
      properties: { f: {}, s: {}, b: {}, n: {}, d: {}, k: {}, c: { type: "integer", minimum: 0 } },
      required: ["f"],
    });
    expect(Object.is((out.properties as Record<string, Schema>).c!.minimum, 0)).toBe(true);
  });
});

describe("huge strings", () => {
  const huge = "x".repeat(64 * 1024 * 1024);

  // The bench prints this case's time. `huge` is a valid pattern, so its being dropped shows it was refused unparsed.
  it("keeps annotations and names verbatim, refuses huge patterns and references", () => {
    const { result, reads } = normalizeCounted({
      type: "object",
      description: huge,
      properties: { [huge]: { type: "string", pattern: huge, format: huge }, r: { $ref: `#/${huge}` } },
      required: [huge],
    });
    expect((result.description as string).length).toBe(huge.length);
    expect(result.properties).toEqual({ [huge]: { type: "string" }, r: {} });
    expect(result.required).toEqual([huge]);
    expect(reads).toBeLessThanOrEqual(READS_PER_NODE * 4);
  });
});

describe("hostile objects", () => {
  it("never runs a getter", () => {
    let calls = 0;
    const input = {
      type: "object",
      get properties() {
        calls++;
        return { a: { type: "string" } };
      },
    };
    expect(normalizeSchema(input)).toEqual(FALLBACK);
    expect(calls).toBe(0);
  });

  it("treats a throwing or revoked proxy as an unreadable (empty) object", () => {
    const boom = () => {
      throw new Error("boom");
    };
    const throwing = new Proxy({}, { ownKeys: boom, get: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(normalizeSchema(throwing)).toEqual(FALLBACK);
    expect(normalizeSchema(proxy)).toEqual(FALLBACK);
    expect(
      normalizeSchema({
        type: "object",
        properties: { a: throwing, b: proxy, c: { type: "string" } },
        required: proxy,
      }),
    ).toEqual({
      type: "object",
      properties: { a: {}, b: {}, c: { type: "string" } },
    });
    expect(normalizeSchema({ type: "object" }, throwing as never)).toEqual(FALLBACK);
  });

  it("survives garbage options", () => {
    expect(
      normalizeSchema({ type: "object" }, {
        target: "nope",
        maxDepth: -5,
        maxNodes: Number.NaN,
        maxRecursion: 1e9,
      } as never),
    ).toEqual(FALLBACK);
    expect(normalizeSchema({ type: "object" }, "gemini" as never)).toEqual(FALLBACK);
  });
});

describe("totality", () => {
  const assertShape = (out: Schema) => {
    expect(out.type).toBe("object");
    expect(JSON.parse(JSON.stringify(out))).toStrictEqual(out);
  };

  it("returns a JSON object schema for anything fast-check can build", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
        }),
        (input) => {
          assertShape(normalizeSchema(input));
          assertShape(
            normalizeSchema({ type: "object", properties: { x: input }, required: ["x"] }, { target: "gemini" }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("returns a JSON object schema for schema-shaped garbage", () => {
    const keyword = fc.constantFrom(
      "type",
      "properties",
      "items",
      "prefixItems",
      "anyOf",
      "oneOf",
      "allOf",
      "enum",
      "const",
      "$ref",
      "$defs",
      "required",
      "additionalProperties",
      "minimum",
      "exclusiveMinimum",
      "pattern",
      "format",
      "nullable",
      "not",
    );
    const leaf = fc.oneof(
      fc.constantFrom(
        "object",
        "array",
        "string",
        "number",
        "integer",
        "boolean",
        "null",
        "#",
        "#/$defs/a",
        "#/properties/x",
      ),
      fc.jsonValue({ maxDepth: 1 }),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.dictionary(keyword, tie("tree"), { maxKeys: 5 }),
        fc.array(tie("tree"), { maxLength: 3 }),
      ),
    }));
    fc.assert(
      fc.property(tree, (input) => {
        for (const target of ["portable", "gemini"] as const) assertShape(normalizeSchema(input, { target }));
      }),
      { numRuns: 1_000 },
    );
  });
});
