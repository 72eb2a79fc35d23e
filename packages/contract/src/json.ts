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

/** How many own keys `record` has, without making an array of them (asked of messages on a hot path). */
export function ownKeyCount(record: object): number {
  let count = 0;
  for (const key in record) if (Object.hasOwn(record, key)) count += 1;
  return count;
}
