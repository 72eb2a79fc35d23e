/**
 * JSON state files: the common case of `updateStateFile`. `decode` turns
 * whatever is in the file (`undefined` when missing, corrupt or too large)
 * into the state, keeping what it recognises; `change` returns the next
 * state, or `undefined` to leave the file alone.
 */
import {
  readStateText,
  readStateTextSync,
  updateStateFile,
  updateStateFileSync,
  type StateFileOptions,
} from "./state-update";

export type Decode<S> = (value: unknown) => S;

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function serialize(state: unknown): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

/** The file's state as `decode` reads it. */
export function readJsonStateSync<S>(file: string, decode: Decode<S>, options: StateFileOptions = {}): S {
  return decode(parse(readStateTextSync(file, options)));
}

/** `readJsonStateSync` without blocking the event loop. */
export async function readJsonState<S>(file: string, decode: Decode<S>, options: StateFileOptions = {}): Promise<S> {
  return decode(parse(await readStateText(file, options)));
}

/** Locked read-modify-write of a JSON state file; returns the state now in the file. */
export function updateJsonStateSync<S>(
  file: string,
  decode: Decode<S>,
  change: (state: S) => S | undefined,
  options: StateFileOptions = {},
): S {
  return updateStateFileSync(
    file,
    (text) => {
      const state = decode(parse(text));
      const next = change(state);
      return next === undefined ? { result: state } : { text: serialize(next), result: next };
    },
    options,
  );
}

/** `updateJsonStateSync` without blocking the event loop (`change` may be async). */
export async function updateJsonState<S>(
  file: string,
  decode: Decode<S>,
  change: (state: S) => S | undefined | Promise<S | undefined>,
  options: StateFileOptions = {},
): Promise<S> {
  return updateStateFile(
    file,
    async (text) => {
      const state = decode(parse(text));
      const next = await change(state);
      return next === undefined ? { result: state } : { text: serialize(next), result: next };
    },
    options,
  );
}
