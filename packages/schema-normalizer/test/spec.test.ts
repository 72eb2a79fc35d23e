/**
 * The spec's table (interop.txt, "Schema normalization"): type dispatch, the
 * top-level fallback, the stripped keywords at every level, object and array
 * normalization, purity, totality and key order.
 */
import { STRIPPED_KEYWORDS, normalizeSchema } from "@indus/schema-normalizer";
import { corpusCases } from "./support/corpus";
import { deepFreeze, objectsIn, schemaNodes } from "./support/walk";

const FALLBACK = { type: "object", properties: {} };

describe("the spec's example", () => {
  const input = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      path: { type: "string", default: "/tmp" },
      tags: { type: "array", items: [{ type: "string" }, { type: "number" }] },
    },
    required: ["path", "missing"],
  };

  it("strips $schema and default and filters required to declared keys", () => {
    const out = normalizeSchema(input);
    expect(out).toEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        // Deviation (README, "Tuples"): collapsing ["a", 1]'s schema to { type: "string" }
        // would reject it; the collapsed schema must admit every position and the open tail.
        tags: { type: "array", items: {} },
      },
      required: ["path"],
    });
  });

  it("collapses a tuple to its first schema when every position (and the tail) agrees", () => {
    const out = normalizeSchema({
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "string" }], additionalItems: false } },
    });
    expect(out.properties).toEqual({ pair: { type: "array", items: { type: "string" } } });
  });

  it("collapses a closed heterogeneous tuple to the union of its positions", () => {
    const out = normalizeSchema({
      type: "object",
      properties: {
        pair: { type: "array", items: [{ type: "string" }, { type: "number" }], minItems: 2, maxItems: 2 },
      },
    });
    expect(out.properties).toEqual({
      pair: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] }, minItems: 2, maxItems: 2 },
    });
  });
});

describe("dispatch on the declared type", () => {
  const kitchenSink = {
    description: "d",
    properties: { a: { type: "string" } },
    required: ["a"],
    additionalProperties: false,
    items: { type: "string" },
    minItems: 1,
    minLength: 2,
    pattern: "^x",
    minimum: 0,
    multipleOf: 2,
  };
  it.each([
    [
      "object",
      {
        type: "object",
        description: "d",
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      },
    ],
    ["array", { type: "array", description: "d", items: { type: "string" }, minItems: 1 }],
    ["string", { type: "string", description: "d", minLength: 2, pattern: "^x" }],
    ["number", { type: "number", description: "d", minimum: 0, multipleOf: 2 }],
    ["integer", { type: "integer", description: "d", minimum: 0, multipleOf: 2 }],
    ["boolean", { type: "boolean", description: "d" }],
    ["null", { type: "null", description: "d" }],
  ])("a %s keeps only the keywords that constrain it", (type, expected) => {
    const out = normalizeSchema({ type: "object", properties: { x: { type, ...kitchenSink } } });
    expect((out.properties as Record<string, unknown>).x).toEqual(expected);
  });

  it("gives every object a properties record and every array an items schema", () => {
    const out = normalizeSchema({ type: "object", properties: { o: { type: "object" }, l: { type: "array" } } });
    expect(out.properties).toEqual({ o: { type: "object", properties: {} }, l: { type: "array", items: {} } });
  });
});

describe("the top-level fallback", () => {
  it.each([
    ["a non-object value", "not a schema"],
    ["null", null],
    ["an array", [{ type: "object" }]],
    ["a non-string type", { type: 5, properties: { a: { type: "string" } } }],
    ["an unrecognized type", { type: "file", properties: { a: { type: "string" } } }],
    ["a type list without object", { type: ["string", "null"] }],
    ["a non-object type", { type: "string", minLength: 1 }],
  ])("%s becomes the closed object", (_label, input) => {
    expect(normalizeSchema(input)).toEqual(FALLBACK);
  });

  it("keeps an absent-type root's properties (MCP arguments are always an object)", () => {
    expect(normalizeSchema({ properties: { a: { type: "string" } } })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(normalizeSchema({})).toEqual(FALLBACK);
  });
});

describe("stripped keywords", () => {
  const noise = Object.fromEntries(
    STRIPPED_KEYWORDS.map((keyword) => [keyword, keyword === "$ref" ? "https://example.com/remote.json" : "noise"]),
  );
  const input = {
    ...noise,
    type: "object",
    properties: {
      nested: { ...noise, type: "object", properties: { leaf: { ...noise, type: "string" } } },
      list: { ...noise, type: "array", items: { ...noise, type: "integer" } },
      union: {
        ...noise,
        anyOf: [
          { ...noise, type: "string" },
          { ...noise, type: "boolean" },
        ],
      },
      map: { ...noise, type: "object", additionalProperties: { ...noise, type: "number" } },
    },
  };

  it("are gone at every level", () => {
    const out = normalizeSchema(input);
    for (const { node, path } of schemaNodes(out)) {
      for (const keyword of STRIPPED_KEYWORDS)
        expect({ path, has: Object.hasOwn(node, keyword) }).toEqual({ path, has: false });
    }
    expect(out).toEqual({
      type: "object",
      properties: {
        nested: { type: "object", properties: { leaf: { type: "string" } } },
        list: { type: "array", items: { type: "integer" } },
        union: { anyOf: [{ type: "string" }, { type: "boolean" }] },
        map: { type: "object", properties: {}, additionalProperties: { type: "number" } },
      },
    });
  });

  it("lists exactly the spec's table", () => {
    expect([...STRIPPED_KEYWORDS].sort()).toEqual(
      [
        "$schema",
        "$id",
        "$ref",
        "$defs",
        "definitions",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "default",
        "examples",
        "contentEncoding",
        "contentMediaType",
      ].sort(),
    );
  });
});

describe("objects", () => {
  it("normalizes properties recursively and filters required (deduplicated, dropped when empty)", () => {
    const out = normalizeSchema({
      type: "object",
      properties: { a: { type: "object", properties: { b: { type: "string", default: "x" } }, required: ["c"] } },
      required: ["a", "a", 7, "zzz"],
    });
    expect(out).toEqual({
      type: "object",
      properties: { a: { type: "object", properties: { b: { type: "string" } } } },
      required: ["a"],
    });
  });

  it("forwards a boolean additionalProperties and normalizes a schema one", () => {
    const closed = normalizeSchema({ type: "object", properties: {}, additionalProperties: false });
    const open = normalizeSchema({ type: "object", properties: {}, additionalProperties: true });
    const typed = normalizeSchema({
      type: "object",
      additionalProperties: { type: "string", default: "x", $comment: "c" },
    });
    expect(closed.additionalProperties).toBe(false);
    expect(open.additionalProperties).toBe(true);
    expect(typed.additionalProperties).toEqual({ type: "string" });
  });
});

describe("purity", () => {
  it("never mutates its argument (a deep-frozen corpus normalizes unchanged)", () => {
    for (const entry of corpusCases()) {
      const before = structuredClone(entry.schema);
      const frozen = deepFreeze(structuredClone(entry.schema));
      normalizeSchema(frozen);
      normalizeSchema(frozen, { target: "gemini" });
      expect(frozen).toEqual(before);
    }
  });

  it("returns fresh objects that share nothing with the input", () => {
    for (const entry of corpusCases()) {
      const inputObjects = new Set([...objectsIn(entry.schema)].map(({ node }) => node));
      for (const target of ["portable", "gemini"] as const) {
        for (const { node } of objectsIn(normalizeSchema(entry.schema, { target })))
          expect(inputObjects.has(node)).toBe(false);
      }
    }
  });

  it("returns plain JSON that survives a round trip unchanged", () => {
    for (const entry of corpusCases()) {
      const out = normalizeSchema(entry.schema);
      expect(JSON.parse(JSON.stringify(out))).toStrictEqual(out);
    }
  });

  it("is deterministic", () => {
    for (const entry of corpusCases())
      expect(normalizeSchema(entry.schema)).toStrictEqual(normalizeSchema(entry.schema));
  });
});

describe("key order", () => {
  it("keeps properties and keywords in input order", () => {
    const out = normalizeSchema({
      required: ["z"],
      properties: {
        z: { maxLength: 3, description: "zz", type: "string" },
        a: { type: "number" },
        m: { type: "boolean" },
      },
      type: "object",
      description: "root",
    });
    expect(Object.keys(out)).toEqual(["type", "required", "properties", "description"]);
    expect(Object.keys(out.properties as object)).toEqual(["z", "a", "m"]);
    expect(Object.keys((out.properties as Record<string, object>).z!)).toEqual(["maxLength", "description", "type"]);
  });

  it("keeps a property named __proto__ as an own property", () => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    const out = normalizeSchema(input);
    expect(Object.keys(out.properties as object)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(out.properties, "__proto__")?.value).toEqual({ type: "string" });
    expect(out.required).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(out.properties)).toBe(Object.prototype);
  });
});
