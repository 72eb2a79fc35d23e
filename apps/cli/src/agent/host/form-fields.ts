/**
 * An elicitation's `requestedSchema` as form fields, and the checks a typed
 * answer must pass. MCP limits form schemas to one flat object of primitive
 * properties (string with an optional format, number/integer with bounds,
 * boolean, single-select enums, multi-select arrays), so each property maps
 * to exactly one field kind; anything else is reported, never guessed at.
 * Pure functions: the terminal form and `--yes` both build on them.
 */
import { z } from "zod";
import { isRecord, type JsonObject, type JsonValue } from "@indus/contract";

export type StringFormat = "email" | "uri" | "date" | "date-time";

export interface ChoiceOption {
  readonly value: string;
  /** What the user sees (the value itself when the schema gives no title). */
  readonly title: string;
}

interface FieldBase {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
}

export type FormField =
  | (FieldBase & {
      readonly kind: "text";
      readonly format?: StringFormat;
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: "number";
      readonly integer: boolean;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly kind: "boolean"; readonly default?: boolean })
  | (FieldBase & { readonly kind: "choice"; readonly options: readonly ChoiceOption[]; readonly default?: string })
  | (FieldBase & {
      readonly kind: "multi";
      readonly options: readonly ChoiceOption[];
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: readonly string[];
    });

/** A property the terminal cannot render, and why. */
export interface UnsupportedField {
  readonly name: string;
  readonly required: boolean;
  readonly reason: string;
}

export interface ParsedForm {
  readonly fields: readonly FormField[];
  readonly unsupported: readonly UnsupportedField[];
}

/** One answer checked: the value to send, nothing (an optional field left empty), or why it was refused. */
export type FieldAnswer =
  { readonly ok: true; readonly value: JsonValue | undefined } | { readonly ok: false; readonly error: string };

const FORMATS: readonly StringFormat[] = ["email", "uri", "date", "date-time"];

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** `oneOf`/`anyOf` of `{const, title}`, or `enum` (+ legacy `enumNames`), as options. */
function optionsOf(schema: Record<string, unknown>): ChoiceOption[] | undefined {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled) {
    const options = titled.filter(isRecord).flatMap((o) => {
      const value = text(o.const);
      return value === undefined ? [] : [{ value, title: text(o.title) ?? value }];
    });
    return options.length > 0 ? options : undefined;
  }
  if (!Array.isArray(schema.enum)) return undefined;
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  const options = schema.enum.flatMap((value, i) =>
    typeof value === "string" ? [{ value, title: text(names[i]) ?? value }] : [],
  );
  return options.length > 0 ? options : undefined;
}

function fieldOf(name: string, schema: Record<string, unknown>, required: boolean): FormField | string {
  const base: FieldBase = {
    name,
    title: text(schema.title) ?? name,
    ...(text(schema.description) !== undefined ? { description: text(schema.description)! } : {}),
    required,
  };
  switch (schema.type) {
    case "string":
      return stringField(base, schema);
    case "number":
    case "integer":
      return numberField(base, schema);
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof schema.default === "boolean" ? { default: schema.default } : {}) };
    case "array":
      return multiField(base, schema);
    default:
      return `type ${JSON.stringify(schema.type ?? null)} is not one MCP forms allow`;
  }
}

/** A choice (the schema lists values) or a text field (with a format MCP forms allow). */
function stringField(base: FieldBase, schema: Record<string, unknown>): FormField | string {
  const options = optionsOf(schema);
  const fallback = text(schema.default);
  if (options) return { ...base, kind: "choice", options, ...(fallback !== undefined ? { default: fallback } : {}) };
  const format = text(schema.format);
  if (format !== undefined && !FORMATS.includes(format as StringFormat))
    return `string format "${format}" is not one MCP forms allow`;
  const minLength = num(schema.minLength);
  const maxLength = num(schema.maxLength);
  return {
    ...base,
    kind: "text",
    ...(format !== undefined ? { format: format as StringFormat } : {}),
    ...(minLength !== undefined ? { minLength } : {}),
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

function numberField(base: FieldBase, schema: Record<string, unknown>): FormField {
  const minimum = num(schema.minimum);
  const maximum = num(schema.maximum);
  const fallback = num(schema.default);
  return {
    ...base,
    kind: "number",
    integer: schema.type === "integer",
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

/** An array is a form field only as a multiple choice. */
function multiField(base: FieldBase, schema: Record<string, unknown>): FormField | string {
  const options = isRecord(schema.items) ? optionsOf(schema.items) : undefined;
  if (!options) return "an array whose items are not a list of choices";
  const fallback = Array.isArray(schema.default) ? schema.default.filter((v) => typeof v === "string") : undefined;
  const minItems = num(schema.minItems);
  const maxItems = num(schema.maxItems);
  return {
    ...base,
    kind: "multi",
    options,
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

/** The fields of a `requestedSchema`, in the order the server listed them. */
export function formFields(requestedSchema: JsonValue | undefined): ParsedForm {
  if (!isRecord(requestedSchema) || !isRecord(requestedSchema.properties)) return { fields: [], unsupported: [] };
  const required = new Set(
    Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((r) => typeof r === "string") : [],
  );
  const fields: FormField[] = [];
  const unsupported: UnsupportedField[] = [];
  for (const [name, schema] of Object.entries(requestedSchema.properties)) {
    const field = isRecord(schema) ? fieldOf(name, schema, required.has(name)) : "not a schema";
    if (typeof field === "string") unsupported.push({ name, required: required.has(name), reason: field });
    else fields.push(field);
  }
  return { fields, unsupported };
}

const FORMAT_CHECKS: Record<StringFormat, { readonly schema: z.ZodType; readonly hint: string }> = {
  email: { schema: z.email(), hint: "an email address, like name@example.com" },
  uri: { schema: z.url(), hint: "a URL with a scheme, like https://example.com" },
  date: { schema: z.iso.date(), hint: "a date as YYYY-MM-DD" },
  "date-time": { schema: z.iso.datetime({ offset: true }), hint: "a date and time, like 2026-01-31T09:30:00Z" },
};

/** A choice picked by its number in the list, its value, or its title (case ignored). */
function pickOption(options: readonly ChoiceOption[], typed: string): ChoiceOption | undefined {
  const index = /^\d+$/.test(typed) ? Number(typed) : NaN;
  if (index >= 1 && index <= options.length) return options[index - 1];
  const lower = typed.toLowerCase();
  return (
    options.find((o) => o.value === typed) ??
    options.find((o) => o.value.toLowerCase() === lower || o.title.toLowerCase() === lower)
  );
}

function checkText(field: Extract<FormField, { kind: "text" }>, typed: string): FieldAnswer {
  if (field.minLength !== undefined && typed.length < field.minLength)
    return { ok: false, error: `at least ${field.minLength} character${field.minLength === 1 ? "" : "s"}` };
  if (field.maxLength !== undefined && typed.length > field.maxLength)
    return { ok: false, error: `at most ${field.maxLength} character${field.maxLength === 1 ? "" : "s"}` };
  if (field.format && !FORMAT_CHECKS[field.format].schema.safeParse(typed).success)
    return { ok: false, error: `expected ${FORMAT_CHECKS[field.format].hint}` };
  return { ok: true, value: typed };
}

function checkNumber(field: Extract<FormField, { kind: "number" }>, typed: string): FieldAnswer {
  const value = Number(typed);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(typed) || !Number.isFinite(value))
    return { ok: false, error: field.integer ? "expected a whole number" : "expected a number" };
  if (field.integer && !Number.isInteger(value)) return { ok: false, error: "expected a whole number" };
  if (field.minimum !== undefined && value < field.minimum)
    return { ok: false, error: `must be at least ${field.minimum}` };
  if (field.maximum !== undefined && value > field.maximum)
    return { ok: false, error: `must be at most ${field.maximum}` };
  return { ok: true, value };
}

function checkBoolean(typed: string): FieldAnswer {
  const lower = typed.toLowerCase();
  if (["y", "yes", "true"].includes(lower)) return { ok: true, value: true };
  if (["n", "no", "false"].includes(lower)) return { ok: true, value: false };
  return { ok: false, error: "answer y or n" };
}

function checkMulti(field: Extract<FormField, { kind: "multi" }>, typed: string): FieldAnswer {
  const picked: string[] = [];
  for (const part of typed
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.length > 0)) {
    const option = pickOption(field.options, part);
    if (!option) return { ok: false, error: `"${part}" is not one of the choices` };
    if (!picked.includes(option.value)) picked.push(option.value);
  }
  if (field.minItems !== undefined && picked.length < field.minItems)
    return { ok: false, error: `pick at least ${field.minItems}` };
  if (field.maxItems !== undefined && picked.length > field.maxItems)
    return { ok: false, error: `pick at most ${field.maxItems}` };
  return { ok: true, value: picked };
}

/**
 * Check what the user typed for one field. An empty answer takes the default
 * when there is one, is refused for a required field, and leaves an optional
 * field out of the content.
 */
export function answerField(field: FormField, raw: string): FieldAnswer {
  const typed = raw.trim();
  if (typed.length === 0) {
    if (field.default !== undefined) return { ok: true, value: field.default as JsonValue };
    return field.required ? { ok: false, error: "required" } : { ok: true, value: undefined };
  }
  switch (field.kind) {
    case "text":
      return checkText(field, typed);
    case "number":
      return checkNumber(field, typed);
    case "boolean":
      return checkBoolean(typed);
    case "choice": {
      const option = pickOption(field.options, typed);
      return option ? { ok: true, value: option.value } : { ok: false, error: `"${typed}" is not one of the choices` };
    }
    case "multi":
      return checkMulti(field, typed);
  }
}

/**
 * The content a form gets when nobody can fill it in (`--yes` in a `-p` run):
 * every default, provided each required field has one; otherwise `undefined`.
 */
export function defaultsOnly(form: ParsedForm): JsonObject | undefined {
  if (form.unsupported.some((u) => u.required)) return undefined;
  if (form.fields.some((f) => f.required && f.default === undefined)) return undefined;
  const content: Record<string, JsonValue> = {};
  for (const field of form.fields) if (field.default !== undefined) content[field.name] = field.default as JsonValue;
  return content;
}

/** How a value reads back to the user in the summary. */
export function showValue(field: FormField, value: JsonValue): string {
  const titleOf = (v: JsonValue) => {
    const plain = typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
    return field.kind === "choice" || field.kind === "multi"
      ? (field.options.find((o) => o.value === v)?.title ?? plain)
      : plain;
  };
  if (Array.isArray(value)) return value.map(titleOf).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return titleOf(value);
}
