/**
 * The Gemini projection: portable nodes reshaped into the OpenAPI 3.0 subset
 * `FunctionDeclaration.parameters` accepts. Gemini has no `null` type, no
 * `const`, no `additionalProperties`, string-only `enum`, a short `format`
 * list and no exclusive bounds; what it cannot express is widened, and the
 * lost constraint is written into `description` so the model still reads it.
 */
import { GEMINI_FORMATS, GEMINI_KEYWORDS } from "./keywords";
import type { SchemaNode } from "./node";
import { setOwn } from "./read";

const MAX_HINT_LENGTH = 200;

function hintValues(values: readonly unknown[]): string {
  const text = JSON.stringify(values);
  return text.length <= MAX_HINT_LENGTH ? text : `${text.slice(0, MAX_HINT_LENGTH)}…`;
}

function isNullOnly(node: SchemaNode): boolean {
  return node.type === "null";
}

/** What a typeless node evidently is, so Gemini gets the `type` it wants. */
function inferType(node: SchemaNode): string | undefined {
  if (node.properties !== undefined || node.required !== undefined) return "object";
  if (node.items !== undefined || node.minItems !== undefined || node.maxItems !== undefined) return "array";
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    const values = node.enum as unknown[];
    if (values.every((value) => typeof value === "string")) return "string";
    if (values.every((value) => typeof value === "boolean")) return "boolean";
    if (values.every((value) => Number.isInteger(value))) return "integer";
    if (values.every((value) => typeof value === "number")) return "number";
  }
  if (node.minLength !== undefined || node.maxLength !== undefined || node.pattern !== undefined) return "string";
  if (node.minimum !== undefined || node.maximum !== undefined) return "number";
  return undefined;
}

export function toGemini(node: SchemaNode): SchemaNode {
  const out: SchemaNode = {};
  const hints: string[] = [];
  let nullable = false;
  let merged: SchemaNode | undefined;
  const type = node.type;

  for (const key of Object.keys(node)) {
    const value = node[key];
    switch (key) {
      case "type":
        if (value === "null") nullable = true;
        else out.type = value;
        break;
      case "anyOf": {
        const branches = value as SchemaNode[];
        if (branches.some(isNullOnly)) nullable = true;
        const rest = branches.filter((branch) => !isNullOnly(branch)).map(toGemini);
        if (rest.length === 1) merged = rest[0];
        else if (rest.length > 1) out.anyOf = rest;
        break;
      }
      case "properties": {
        const properties: SchemaNode = {};
        for (const name of Object.keys(value as SchemaNode)) {
          setOwn(properties, name, toGemini((value as SchemaNode)[name] as SchemaNode));
        }
        // Gemini rejects an OBJECT whose `properties` is present but empty.
        if (Object.keys(properties).length > 0) out.properties = properties;
        break;
      }
      case "items":
        out.items = toGemini(value as SchemaNode);
        break;
      case "enum": {
        const values = value as unknown[];
        if (values.every((entry) => typeof entry === "string")) out.enum = values;
        else if (values.length === 1) hints.push(`must be ${hintValues(values).slice(1, -1)}`);
        else hints.push(`one of ${hintValues(values)}`);
        break;
      }
      case "format": {
        const allowed = GEMINI_FORMATS[typeof type === "string" ? type : "string"];
        if (allowed?.has(value as string)) out.format = value;
        else hints.push(`format: ${value as string}`);
        break;
      }
      case "exclusiveMinimum":
        if (node.minimum === undefined) {
          out.minimum = type === "integer" ? Math.floor(value as number) + 1 : value;
        }
        break;
      case "exclusiveMaximum":
        if (node.maximum === undefined) {
          out.maximum = type === "integer" ? Math.ceil(value as number) - 1 : value;
        }
        break;
      case "multipleOf":
        hints.push(`multiple of ${value as number}`);
        break;
      case "uniqueItems":
        if (value === true) hints.push("items must be unique");
        break;
      default:
        if (GEMINI_KEYWORDS.has(key)) setOwn(out, key, value);
    }
  }

  let result = out;
  if (merged !== undefined) {
    // A union that was only "T or null": T itself, with this node's annotations first.
    result = { ...out };
    for (const key of Object.keys(merged)) {
      if (key === "description" && typeof out.description === "string") continue;
      if (key === "title" && typeof out.title === "string") continue;
      setOwn(result, key, merged[key]);
    }
  }
  if (result.type === undefined && result.anyOf === undefined) {
    const inferred = inferType(merged === undefined ? node : result);
    if (inferred !== undefined) result = { type: inferred, ...result };
  }
  if (result.type === "string" && Array.isArray(result.enum) && result.format === undefined) {
    // Gemini's documented spelling of a string enum.
    result.format = "enum";
  }
  if (hints.length > 0) {
    const note = `(${hints.join("; ")})`;
    result.description = typeof result.description === "string" ? `${result.description} ${note}` : note;
  }
  if (nullable) {
    if (Array.isArray(result.anyOf)) {
      result.anyOf = (result.anyOf as SchemaNode[]).map((branch) => ({ ...branch, nullable: true }));
    } else {
      result.nullable = true;
    }
  }
  return result;
}
