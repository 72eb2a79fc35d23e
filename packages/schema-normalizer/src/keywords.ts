/**
 * The keyword tables. The normalizer is a whitelist: a keyword survives only
 * when it is listed here for the node's type, so the spec's stripped keywords
 * and every vendor extension a provider might reject are gone by construction.
 */

export const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;
export type JsonType = (typeof JSON_TYPES)[number];

export function isJsonType(value: unknown): value is JsonType {
  return typeof value === "string" && (JSON_TYPES as readonly string[]).includes(value);
}

/** The spec's table: removed at every level (the whitelist never emits them). */
export const STRIPPED_KEYWORDS = Object.freeze([
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
] as const);

/** Keywords that only describe; they never change which values validate. */
export const ANNOTATIONS = ["title", "description"] as const;

const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "minProperties", "maxProperties"];
const ARRAY_KEYWORDS = ["items", "minItems", "maxItems", "uniqueItems"];
const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"];
const COMMON_KEYWORDS = ["type", "title", "description", "enum", "anyOf"];

const APPLICABLE: Record<JsonType, ReadonlySet<string>> = {
  object: new Set([...COMMON_KEYWORDS, ...OBJECT_KEYWORDS]),
  array: new Set([...COMMON_KEYWORDS, ...ARRAY_KEYWORDS]),
  string: new Set([...COMMON_KEYWORDS, ...STRING_KEYWORDS]),
  number: new Set([...COMMON_KEYWORDS, ...NUMBER_KEYWORDS]),
  integer: new Set([...COMMON_KEYWORDS, ...NUMBER_KEYWORDS]),
  boolean: new Set(COMMON_KEYWORDS),
  null: new Set(COMMON_KEYWORDS),
};

/** Every keyword a portable node may carry (a typeless node keeps any of them). */
export const PORTABLE_KEYWORDS: ReadonlySet<string> = new Set([
  ...COMMON_KEYWORDS,
  ...OBJECT_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...STRING_KEYWORDS,
  ...NUMBER_KEYWORDS,
]);

/** Whether `keyword` constrains values of `type` (a typeless node: any keyword). */
export function appliesTo(type: JsonType | undefined, keyword: string): boolean {
  return type === undefined ? PORTABLE_KEYWORDS.has(keyword) : APPLICABLE[type].has(keyword);
}

/** Whether a value of JSON type `type` can be `value` (used to filter `enum`). */
export function valueHasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

/** Keywords Gemini's OpenAPI-subset `Schema` message accepts. */
export const GEMINI_KEYWORDS: ReadonlySet<string> = new Set([
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

/** `format` values Gemini's Schema accepts, per type. */
export const GEMINI_FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(["enum", "date-time"]),
  integer: new Set(["int32", "int64"]),
  number: new Set(["float", "double"]),
};
