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

/** What `toGemini` has built of one node so far. */
interface GeminiDraft {
  readonly node: SchemaNode;
  readonly out: SchemaNode;
  /** Constraints Gemini cannot express, said in the description instead. */
  readonly hints: string[];
  nullable: boolean;
  /** The one non-null branch of a "T or null" union. */
  merged: SchemaNode | undefined;
}

export function toGemini(node: SchemaNode): SchemaNode {
  const draft: GeminiDraft = { node, out: {}, hints: [], nullable: false, merged: undefined };
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (structuralKeyword(key, value, draft)) continue;
    if (valueKeyword(key, value, draft)) continue;
    if (GEMINI_KEYWORDS.has(key)) setOwn(draft.out, key, value);
  }
  return withNullable(withHints(withType(withMerged(draft), draft), draft), draft);
}

/** `type`, `anyOf`, `properties`, `items`: the node's shape. */
function structuralKeyword(key: string, value: unknown, draft: GeminiDraft): boolean {
  const { out } = draft;
  switch (key) {
    case "type":
      if (value === "null") draft.nullable = true;
      else out.type = value;
      return true;
    case "anyOf": {
      const branches = value as SchemaNode[];
      if (branches.some(isNullOnly)) draft.nullable = true;
      const rest = branches.filter((branch) => !isNullOnly(branch)).map(toGemini);
      if (rest.length === 1) draft.merged = rest[0];
      else if (rest.length > 1) out.anyOf = rest;
      return true;
    }
    case "properties": {
      const properties: SchemaNode = {};
      for (const name of Object.keys(value as SchemaNode)) {
        setOwn(properties, name, toGemini((value as SchemaNode)[name] as SchemaNode));
      }
      // Gemini rejects an OBJECT whose `properties` is present but empty.
      if (Object.keys(properties).length > 0) out.properties = properties;
      return true;
    }
    case "items":
      out.items = toGemini(value as SchemaNode);
      return true;
    default:
      return false;
  }
}

/** `enum`, `format` and the bounds: kept where Gemini has them, else hinted. */
function valueKeyword(key: string, value: unknown, draft: GeminiDraft): boolean {
  const { node, out, hints } = draft;
  const type = node.type;
  switch (key) {
    case "enum": {
      const values = value as unknown[];
      if (values.every((entry) => typeof entry === "string")) out.enum = values;
      else if (values.length === 1) hints.push(`must be ${hintValues(values).slice(1, -1)}`);
      else hints.push(`one of ${hintValues(values)}`);
      return true;
    }
    case "format": {
      const allowed = GEMINI_FORMATS[typeof type === "string" ? type : "string"];
      if (allowed?.has(value as string)) out.format = value;
      else hints.push(`format: ${value as string}`);
      return true;
    }
    case "exclusiveMinimum":
      if (node.minimum === undefined) out.minimum = type === "integer" ? Math.floor(value as number) + 1 : value;
      return true;
    case "exclusiveMaximum":
      if (node.maximum === undefined) out.maximum = type === "integer" ? Math.ceil(value as number) - 1 : value;
      return true;
    case "multipleOf":
      hints.push(`multiple of ${value as number}`);
      return true;
    case "uniqueItems":
      if (value === true) hints.push("items must be unique");
      return true;
    default:
      return false;
  }
}

/** A union that was only "T or null": T itself, with this node's annotations first. */
function withMerged({ out, merged }: GeminiDraft): SchemaNode {
  if (merged === undefined) return out;
  const result = { ...out };
  for (const key of Object.keys(merged)) {
    if (key === "description" && typeof out.description === "string") continue;
    if (key === "title" && typeof out.title === "string") continue;
    setOwn(result, key, merged[key]);
  }
  return result;
}

/** Gemini wants a type: inferred when none is declared; a string enum is spelled `format: "enum"`. */
function withType(built: SchemaNode, { node, merged }: GeminiDraft): SchemaNode {
  let result = built;
  if (result.type === undefined && result.anyOf === undefined) {
    const inferred = inferType(merged === undefined ? node : result);
    if (inferred !== undefined) result = { type: inferred, ...result };
  }
  if (result.type === "string" && Array.isArray(result.enum) && result.format === undefined) {
    // Gemini's documented spelling of a string enum.
    result.format = "enum";
  }
  return result;
}

function withHints(result: SchemaNode, { hints }: GeminiDraft): SchemaNode {
  if (hints.length === 0) return result;
  const note = `(${hints.join("; ")})`;
  result.description = typeof result.description === "string" ? `${result.description} ${note}` : note;
  return result;
}

function withNullable(result: SchemaNode, { nullable }: GeminiDraft): SchemaNode {
  if (!nullable) return result;
  if (Array.isArray(result.anyOf)) {
    result.anyOf = (result.anyOf as SchemaNode[]).map((branch) => ({ ...branch, nullable: true }));
  } else {
    result.nullable = true;
  }
  return result;
}
