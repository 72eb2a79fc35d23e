/**
 * A message as JSON text in pieces, for writing a large one without ever
 * holding its whole line: a relayed 50 MB tool result is one long string, and
 * `JSON.stringify` of the message would copy it once more before the first
 * byte goes out. The pieces joined are exactly `JSON.stringify(message)`.
 */
import { MAX_JSON_DEPTH, TEXT_SLICE_UNITS, textSlices } from "@indus/contract";

/**
 * True when `value` holds a string longer than a slice (within the depth any
 * message may have). Asked of every message sent, so it allocates nothing: a
 * small message costs a fraction of its `JSON.stringify`.
 */
export function holdsLongString(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.length > TEXT_SLICE_UNITS;
  if (value === null || typeof value !== "object" || depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (holdsLongString(item, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (holdsLongString(record[key], depth + 1)) return true;
  return false;
}

/**
 * `value` as JSON in pieces: a long string comes as its escaped slices (a
 * slice never splits a surrogate pair, so the escapes are the whole's), and
 * whatever holds no long string as one `JSON.stringify`.
 */
export function* jsonPieces(value: unknown, depth = 0): Generator<string> {
  if (typeof value === "string" && value.length > TEXT_SLICE_UNITS) yield* stringPieces(value);
  else if (!holdsLongString(value, depth) || hasToJSON(value)) yield JSON.stringify(value) ?? "null";
  else if (Array.isArray(value)) yield* arrayPieces(value, depth);
  else yield* objectPieces(value as Record<string, unknown>, depth);
}

/**
 * UTF-16 units escaped at a time: small enough that each escaped copy is
 * young garbage the next scavenge frees, where a 1 MiB one would wait in the
 * old generation for a full collection (10 MB of it for a 10 MB result).
 */
export const ESCAPE_UNITS = 64 * 1024;

/**
 * What `JSON.stringify` may escape in a string: a quote, a backslash, a
 * character below a space, a surrogate (a lone one is escaped; a pair is not, but
 * escaping a slice that holds one gives the same text).
 */
const MAY_ESCAPE = /["\\]|[^ -\ud7ff\ue000-\uffff]/;

/**
 * A long string's JSON in slices. A slice with nothing to escape goes out as
 * itself (a view of the text, no copy), so plain text adds no garbage while
 * it is written: each escaped copy waits for a scavenge, and the relay's peak
 * is reached while they pile up.
 */
function* stringPieces(text: string): Generator<string> {
  yield '"';
  for (const slice of textSlices(text, ESCAPE_UNITS))
    yield MAY_ESCAPE.test(slice) ? JSON.stringify(slice).slice(1, -1) : slice;
  yield '"';
}

function* arrayPieces(items: readonly unknown[], depth: number): Generator<string> {
  yield "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) yield ",";
    // What JSON.stringify leaves out of an object is null in an array.
    if (omitted(items[index])) yield "null";
    else yield* jsonPieces(items[index], depth + 1);
  }
  yield "]";
}

function* objectPieces(record: Record<string, unknown>, depth: number): Generator<string> {
  let separator = "{";
  for (const [key, item] of Object.entries(record)) {
    if (omitted(item)) continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ",";
    yield* jsonPieces(item, depth + 1);
  }
  yield separator === "{" ? "{}" : "}";
}

function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function hasToJSON(value: unknown): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}
