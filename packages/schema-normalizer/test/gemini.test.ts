/**
 * target "gemini": the OpenAPI 3.0 subset of Gemini's
 * FunctionDeclaration.parameters. A shape check over the whole corpus, then
 * the individual rewrites.
 */
import { normalizeSchema } from "@indus/schema-normalizer";
import { corpusCases, syntheticCases } from "./support/corpus";
import { schemaNodes } from "./support/walk";

const GEMINI_KEYWORDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "anyOf",
]);
const GEMINI_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean"]);
const GEMINI_FORMATS: Record<string, string[]> = {
  string: ["enum", "date-time"],
  integer: ["int32", "int64"],
  number: ["float", "double"],
};

type Schema = Record<string, unknown>;
const gemini = (schema: unknown) => normalizeSchema(schema, { target: "gemini" });
const property = (schema: Schema) =>
  (gemini({ type: "object", properties: { x: schema } }).properties as Record<string, Schema>).x;

it.each([...corpusCases(), ...syntheticCases()].map((entry) => [entry.label, entry.schema] as const))(
  "%s stays inside Gemini's Schema subset",
  (_label, schema) => {
    const out = gemini(schema);
    expect(out.type).toBe("object");
    for (const { node, path } of schemaNodes(out)) {
      const problems: string[] = [];
      for (const key of Object.keys(node)) if (!GEMINI_KEYWORDS.has(key)) problems.push(`keyword ${key}`);
      if (node.type !== undefined && !GEMINI_TYPES.has(node.type as string))
        problems.push(`type ${typeof node.type === "string" ? node.type : JSON.stringify(node.type)}`);
      if (Array.isArray(node.enum) && !node.enum.every((value) => typeof value === "string"))
        problems.push("non-string enum");
      if (node.properties !== undefined && Object.keys(node.properties as object).length === 0)
        problems.push("empty properties");
      if (node.format !== undefined && !(GEMINI_FORMATS[node.type as string] ?? []).includes(node.format as string)) {
        problems.push(`format ${typeof node.format === "string" ? node.format : JSON.stringify(node.format)}`);
      }
      expect({ path, problems }).toEqual({ path, problems: [] });
    }
  },
);

describe("rewrites", () => {
  it("turns nullability into nullable: true", () => {
    expect(property({ type: ["string", "null"], description: "d" })).toEqual({
      description: "d",
      type: "string",
      nullable: true,
    });
    expect(property({ anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] })).toEqual({
      type: "integer",
      minimum: 1,
      nullable: true,
    });
    expect(property({ type: ["string", "number", "null"] })).toEqual({
      anyOf: [
        { type: "string", nullable: true },
        { type: "number", nullable: true },
      ],
    });
  });

  it("keeps string enums (format enum) and moves other literals into the description", () => {
    expect(property({ type: "string", enum: ["a", "b"] })).toEqual({
      type: "string",
      enum: ["a", "b"],
      format: "enum",
    });
    expect(property({ const: 3, description: "level" })).toEqual({ type: "integer", description: "level (must be 3)" });
    expect(property({ enum: [true] })).toEqual({ type: "boolean", description: "(must be true)" });
    expect(property({ type: "integer", enum: [1, 2] })).toEqual({ type: "integer", description: "(one of [1,2])" });
  });

  it("keeps the formats Gemini knows and describes the rest", () => {
    expect(property({ type: "string", format: "date-time" })).toEqual({ type: "string", format: "date-time" });
    expect(property({ type: "string", format: "email", description: "to" })).toEqual({
      type: "string",
      description: "to (format: email)",
    });
    expect(property({ type: "integer", format: "int64" })).toEqual({ type: "integer", format: "int64" });
  });

  it("turns exclusive bounds inclusive (exactly for integers) and describes multipleOf and uniqueItems", () => {
    expect(property({ type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 9,
    });
    expect(property({ type: "number", exclusiveMinimum: 0.5 })).toEqual({ type: "number", minimum: 0.5 });
    expect(property({ type: "number", multipleOf: 5 })).toEqual({ type: "number", description: "(multiple of 5)" });
    expect(property({ type: "array", items: { type: "string" }, uniqueItems: true })).toEqual({
      type: "array",
      items: { type: "string" },
      description: "(items must be unique)",
    });
  });

  it("drops additionalProperties and an empty properties map, and infers a missing type", () => {
    expect(property({ type: "object", additionalProperties: { type: "string" } })).toEqual({ type: "object" });
    expect(property({ properties: { a: { type: "string" } } })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(property({ maxLength: 3 })).toEqual({ type: "string", maxLength: 3 });
    expect(gemini({ type: "object", properties: {} })).toEqual({ type: "object" });
  });
});
