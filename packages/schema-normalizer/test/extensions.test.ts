/**
 * Beyond the spec's table: what zod-built servers publish (type lists,
 * unions, literals, `$ref`s into `$defs`), kept with its meaning wherever a
 * form every provider accepts exists. See the README's "Beyond the spec".
 */
import { normalizeSchema } from "@indus/schema-normalizer";

type Schema = Record<string, unknown>;
const property = (schema: Schema, options?: Parameters<typeof normalizeSchema>[1]) =>
  (normalizeSchema({ type: "object", properties: { x: schema } }, options).properties as Record<string, Schema>).x;

describe("type lists and nullability", () => {
  it("splits a type list into an anyOf of single-typed branches, each with its own keywords", () => {
    expect(property({ type: ["string", "integer", "null"], description: "d", minLength: 1, minimum: 0 })).toEqual({
      description: "d",
      anyOf: [{ type: "string", minLength: 1 }, { type: "integer", minimum: 0 }, { type: "null" }],
    });
  });

  it("reads OpenAPI's nullable: true as a null branch", () => {
    expect(property({ type: "string", nullable: true, maxLength: 4 })).toEqual({
      anyOf: [{ type: "string", maxLength: 4 }, { type: "null" }],
    });
  });

  it("keeps a one-entry type list as a plain type and ignores unknown names", () => {
    expect(property({ type: ["string"] })).toEqual({ type: "string" });
    expect(property({ type: ["string", "file"] })).toEqual({ type: "string" });
    expect(property({ type: "any", description: "anything" })).toEqual({ description: "anything" });
  });

  it("distributes enum values to the branches of their type and drops impossible branches", () => {
    expect(property({ type: ["string", "integer", "boolean"], enum: ["a", 1, 2.5] })).toEqual({
      anyOf: [
        { type: "string", enum: ["a"] },
        { type: "integer", enum: [1] },
      ],
    });
  });
});

describe("unions, literals and enums", () => {
  it("turns oneOf into anyOf", () => {
    expect(property({ oneOf: [{ type: "string" }, { type: "number" }] })).toEqual({
      anyOf: [{ type: "string" }, { type: "number" }],
    });
  });

  it("turns const into a one-value enum and a union of literals into one enum", () => {
    expect(property({ type: "string", const: "a" })).toEqual({ type: "string", enum: ["a"] });
    expect(
      property({
        anyOf: [
          { type: "string", const: "a" },
          { type: "string", const: "b" },
        ],
      }),
    ).toEqual({ type: "string", enum: ["a", "b"] });
  });

  it("intersects const with enum and filters enum values by type", () => {
    expect(property({ enum: ["a", "b"], const: "b" })).toEqual({ enum: ["b"] });
    expect(property({ type: "integer", enum: [1, 1.5, "1", 2, 2] })).toEqual({ type: "integer", enum: [1, 2] });
  });

  it("drops enum values no JSON argument can equal, and the enum when none is left", () => {
    expect(
      property({ type: "number", enum: [1, Number.NaN, Infinity, 2n, () => 1, new Date(0), undefined, -0] }),
    ).toEqual({
      type: "number",
      enum: [1, 0],
    });
    expect(property({ type: "number", enum: [Number.NaN] })).toEqual({ type: "number" });
  });

  it("simplifies an anyOf holding an accept-anything branch to no constraint", () => {
    expect(property({ anyOf: [{ type: "string" }, {}], description: "d" })).toEqual({ description: "d" });
  });
});

describe("$ref resolution", () => {
  it("inlines #/$defs, #/definitions and JSON pointers into the root", () => {
    const out = normalizeSchema({
      type: "object",
      properties: {
        a: { $ref: "#/$defs/A" },
        b: { $ref: "#/definitions/B" },
        c: { $ref: "#/properties/a" },
        d: { $ref: "#/$defs/we~1ird~0name" },
        e: { $ref: "#/$defs/per%25cent" },
        f: { $ref: "#/properties/u/anyOf/1" },
        u: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
      $defs: { A: { type: "string", minLength: 1 }, "we/ird~name": { type: "boolean" }, "per%cent": { type: "null" } },
      definitions: { B: { type: "number" } },
    });
    expect(out.properties).toEqual({
      a: { type: "string", minLength: 1 },
      b: { type: "number" },
      c: { type: "string", minLength: 1 },
      d: { type: "boolean" },
      e: { type: "null" },
      f: { type: "integer" },
      u: { anyOf: [{ type: "string" }, { type: "integer" }] },
    });
  });

  it("inlines a root $ref (zod-to-json-schema's named schemas)", () => {
    expect(
      normalizeSchema({
        $ref: "#/definitions/Args",
        definitions: { Args: { type: "object", properties: { q: { type: "string" } } } },
      }),
    ).toEqual({ type: "object", properties: { q: { type: "string" } } });
  });

  it("unrolls a recursive reference maxRecursion times, then accepts anything", () => {
    const list = {
      type: "object",
      properties: { head: { $ref: "#/$defs/Node" } },
      $defs: { Node: { type: "object", properties: { v: { type: "number" }, next: { $ref: "#/$defs/Node" } } } },
    };
    const level = (next: Schema): Schema => ({ type: "object", properties: { v: { type: "number" }, next } });
    expect(normalizeSchema(list, { maxRecursion: 0 }).properties).toEqual({ head: level({}) });
    expect(normalizeSchema(list, { maxRecursion: 1 }).properties).toEqual({ head: level(level({})) });
    expect(normalizeSchema(list).properties).toEqual({ head: level(level(level({}))) });
  });

  it("widens what it cannot resolve to accept-anything, keeping the description", () => {
    const out = normalizeSchema({
      type: "object",
      properties: {
        remote: { $ref: "https://example.com/s.json#/A", description: "remote" },
        anchor: { $ref: "#thing" },
        missing: { $ref: "#/$defs/nope" },
        notSchema: { $ref: "#/required" },
      },
      required: ["remote"],
    });
    expect(out.properties).toEqual({ remote: { description: "remote" }, anchor: {}, missing: {}, notSchema: {} });
  });

  it("applies a $ref's siblings in 2019-09+ and ignores them (but the annotations) in draft-07", () => {
    const schema = (dialect: string) => ({
      $schema: dialect,
      type: "object",
      properties: { x: { $ref: "#/$defs/S", maxLength: 3, description: "site" } },
      $defs: { S: { type: "string", minLength: 1, description: "def" } },
    });
    expect(normalizeSchema(schema("https://json-schema.org/draft/2020-12/schema")).properties).toEqual({
      x: { maxLength: 3, description: "site", type: "string", minLength: 1 },
    });
    expect(normalizeSchema(schema("http://json-schema.org/draft-07/schema#")).properties).toEqual({
      x: { description: "site", type: "string", minLength: 1 },
    });
  });
});

describe("allOf", () => {
  it("merges branches: properties and required united, bounds tightened", () => {
    expect(
      property({
        allOf: [
          { type: "object", properties: { a: { type: "string", maxLength: 9 } }, required: ["a"] },
          {
            type: "object",
            properties: { a: { maxLength: 5, minLength: 1 }, b: { type: "integer" } },
            required: ["b"],
          },
        ],
      }),
    ).toEqual({
      type: "object",
      properties: { a: { type: "string", maxLength: 5, minLength: 1 }, b: { type: "integer" } },
      required: ["a", "b"],
    });
  });

  it("narrows number to integer and drops a type no value can have", () => {
    expect(property({ allOf: [{ type: "number", minimum: 1 }, { type: "integer" }] })).toEqual({
      type: "integer",
      minimum: 1,
    });
    expect(property({ allOf: [{ type: "string" }, { type: "number" }] })).toEqual({});
  });
});

describe("root-level unions", () => {
  it("merges a root oneOf of objects into one object no provider rejects", () => {
    expect(
      normalizeSchema({
        oneOf: [
          {
            type: "object",
            properties: { op: { const: "read" }, path: { type: "string" } },
            required: ["op", "path"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { op: { const: "write" }, path: { type: "string" }, body: { type: "string" } },
            required: ["op", "path", "body"],
            additionalProperties: false,
          },
        ],
      }),
    ).toEqual({
      type: "object",
      properties: { op: { enum: ["read", "write"] }, path: { type: "string" }, body: { type: "string" } },
      required: ["op", "path"],
      additionalProperties: false,
    });
  });

  it("ignores branches that cannot be an arguments object, and falls back when none can", () => {
    expect(
      normalizeSchema({ anyOf: [{ type: "string" }, { type: "object", properties: { a: { type: "number" } } }] }),
    ).toEqual({
      type: "object",
      properties: { a: { type: "number" } },
    });
    expect(normalizeSchema({ anyOf: [{ type: "string" }, { type: "number" }] })).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("keeps a type list's object branch at the root", () => {
    expect(normalizeSchema({ type: ["object", "null"], properties: { a: { type: "string" } } })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
  });
});

describe("keywords whose removal must not narrow", () => {
  it("drops additionalProperties beside patternProperties", () => {
    expect(
      normalizeSchema({
        type: "object",
        properties: { a: { type: "string" } },
        patternProperties: { "^x-": {} },
        additionalProperties: false,
      }),
    ).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it("rewrites draft-04 boolean exclusive bounds", () => {
    expect(
      property({ type: "number", minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }),
    ).toEqual({
      type: "number",
      exclusiveMinimum: 0,
      maximum: 9,
    });
  });

  it("drops malformed keyword values instead of forwarding them", () => {
    expect(
      property({ type: "string", minLength: -1, maxLength: 2.5, pattern: "(", format: 7, description: 5, title: "t" }),
    ).toEqual({ type: "string", title: "t" });
    expect(property({ type: "number", multipleOf: 0, minimum: "1", maximum: Infinity })).toEqual({ type: "number" });
    expect(property({ type: "string", pattern: "a".repeat(10_001) })).toEqual({ type: "string" });
  });

  it("drops keywords outside the subset (not, if/then/else, dependentRequired, propertyNames, vendor extensions)", () => {
    expect(
      property({
        type: "object",
        properties: { a: { type: "string", "x-order": 1 } },
        not: { required: ["a"] },
        if: { properties: { a: { const: "x" } } },
        then: { required: ["b"] },
        dependentRequired: { a: ["b"] },
        propertyNames: { pattern: "^[a-z]+$" },
        unevaluatedProperties: false,
        discriminator: { propertyName: "a" },
      }),
    ).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it("leaves a typeless node typeless, keeping the keywords of every type", () => {
    expect(property({ properties: { a: { type: "string" } }, required: ["a"], minLength: 2 })).toEqual({
      properties: { a: { type: "string" } },
      required: ["a"],
      minLength: 2,
    });
  });
});
