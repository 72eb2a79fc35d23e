/** JSON values as they cross the wire. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema document. Kept open: schemas come from untrusted servers. */
export type JsonSchema = { [key: string]: unknown };
