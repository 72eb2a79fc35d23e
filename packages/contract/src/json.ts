/** JSON values as they cross the wire. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema document. Kept open: schemas come from untrusted servers. */
export type JsonSchema = { [key: string]: unknown };

/**
 * Whether `value` is a JSON object (not null, not an array): the guard for
 * untrusted wire data before its fields are read.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
