/**
 * Guards for model-supplied input. A model can send anything, so every card
 * reads its input through these readers; a bad field becomes an `ArgError`,
 * which the card wrapper turns into an `isError` result naming the field.
 */

/** A model-input problem, reported to the model verbatim. */
export class ArgError extends Error {
  override readonly name = "ArgError";
}

export type InputBag = Readonly<Record<string, unknown>>;

/** The input as a plain object; `undefined`/`null` mean "no arguments". */
export function inputObject(input: unknown): InputBag {
  if (input === undefined || input === null) return {};
  if (typeof input !== "object" || Array.isArray(input)) {
    throw new ArgError(`arguments must be a JSON object, got ${describe(input)}`);
  }
  return input as InputBag;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

/** The first of `keys` that is present (aliases let pasted Claude/Codex argument names work). */
function pick(bag: InputBag, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) {
    if (bag[key] !== undefined && bag[key] !== null) return { key, value: bag[key] };
  }
  return undefined;
}

type Keys = string | readonly string[];
const list = (keys: Keys): readonly string[] => (typeof keys === "string" ? [keys] : keys);

export function optString(bag: InputBag, keys: Keys): string | undefined {
  const hit = pick(bag, list(keys));
  if (hit === undefined) return undefined;
  if (typeof hit.value !== "string") throw new ArgError(`"${hit.key}" must be a string, got ${describe(hit.value)}`);
  return hit.value;
}

export function reqString(bag: InputBag, keys: Keys, options: { allowEmpty?: boolean } = {}): string {
  const value = optString(bag, keys);
  const name = list(keys)[0];
  if (value === undefined) throw new ArgError(`"${name}" is required`);
  if (!options.allowEmpty && value.length === 0) throw new ArgError(`"${name}" must not be empty`);
  return value;
}

export function optInt(bag: InputBag, keys: Keys, range: { min?: number; max?: number } = {}): number | undefined {
  const hit = pick(bag, list(keys));
  if (hit === undefined) return undefined;
  let value = hit.value;
  // Models sometimes quote numbers; accept a plain decimal string.
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) value = Number(value.trim());
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new ArgError(`"${hit.key}" must be an integer, got ${describe(hit.value)}`);
  }
  if (range.min !== undefined && value < range.min) throw new ArgError(`"${hit.key}" must be at least ${range.min}`);
  if (range.max !== undefined && value > range.max) throw new ArgError(`"${hit.key}" must be at most ${range.max}`);
  return value;
}

export function optBool(bag: InputBag, keys: Keys): boolean | undefined {
  const hit = pick(bag, list(keys));
  if (hit === undefined) return undefined;
  if (hit.value === "true") return true;
  if (hit.value === "false") return false;
  if (typeof hit.value !== "boolean") throw new ArgError(`"${hit.key}" must be true or false`);
  return hit.value;
}

export function optEnum<T extends string>(bag: InputBag, keys: Keys, values: readonly T[]): T | undefined {
  const value = optString(bag, keys);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw new ArgError(`"${list(keys)[0]}" must be one of ${values.map((v) => `"${v}"`).join(", ")}, got "${value}"`);
  }
  return value as T;
}

export function reqEnum<T extends string>(bag: InputBag, keys: Keys, values: readonly T[]): T {
  const value = optEnum(bag, keys, values);
  if (value === undefined) {
    throw new ArgError(`"${list(keys)[0]}" is required: one of ${values.map((v) => `"${v}"`).join(", ")}`);
  }
  return value;
}

/** A string or an array of strings, as a list. */
export function optStringList(bag: InputBag, keys: Keys): string[] | undefined {
  const hit = pick(bag, list(keys));
  if (hit === undefined) return undefined;
  if (typeof hit.value === "string") return hit.value.length === 0 ? [] : [hit.value];
  if (!Array.isArray(hit.value) || hit.value.some((v) => typeof v !== "string")) {
    throw new ArgError(`"${hit.key}" must be a string or an array of strings`);
  }
  return hit.value as string[];
}

export function optArray(bag: InputBag, keys: Keys): unknown[] | undefined {
  const hit = pick(bag, list(keys));
  if (hit === undefined) return undefined;
  if (!Array.isArray(hit.value)) throw new ArgError(`"${hit.key}" must be an array, got ${describe(hit.value)}`);
  return hit.value as unknown[];
}
