/**
 * The read-modify-write of a state file, whole: take the file's lock, read
 * what is there now, let the caller edit it, write the result atomically,
 * release. Two processes updating the same file at once each see the
 * other's change; neither is lost.
 */
import fs from "node:fs";
import { writeFileAtomic, writeFileAtomicSync, type WriteOptions } from "./atomic-write";
import { withFileLock, withFileLockSync, type LockOptions } from "./file-lock";
import { writeTarget } from "./write-target";

export interface StateFileOptions extends LockOptions, WriteOptions {
  /**
   * A file longer than this many bytes is read as absent (default: no
   * limit). For files that only hold hints, so a bloated one costs a
   * fresh start, never the memory of every later run.
   */
  readonly maxBytes?: number;
}

/** What an edit decides: the file's new text (`undefined`: leave it alone) and the update's result. */
export interface StateEdit<T> {
  readonly text?: string | undefined;
  readonly result: T;
}

function tooLarge(file: string, maxBytes: number | undefined): boolean {
  if (maxBytes === undefined) return false;
  try {
    return fs.statSync(file).size > maxBytes;
  } catch {
    return false;
  }
}

/** The file's text; `undefined` when it is missing, unreadable or over `maxBytes`. */
export function readStateTextSync(file: string, options: Pick<StateFileOptions, "maxBytes"> = {}): string | undefined {
  if (tooLarge(file, options.maxBytes)) return undefined;
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `readStateTextSync` without blocking the event loop. */
export async function readStateText(
  file: string,
  options: Pick<StateFileOptions, "maxBytes"> = {},
): Promise<string | undefined> {
  if (tooLarge(file, options.maxBytes)) return undefined;
  try {
    return await fs.promises.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Update `file` under its lock; `edit` sees its current text (`undefined` when there is none). */
export function updateStateFileSync<T>(
  file: string,
  edit: (current: string | undefined) => StateEdit<T>,
  options: StateFileOptions = {},
): T {
  const target = writeTarget(file);
  return withFileLockSync(
    target,
    () => {
      const { text, result } = edit(readStateTextSync(target, options));
      if (text !== undefined) writeFileAtomicSync(target, text, options);
      return result;
    },
    options,
  );
}

/** `updateStateFileSync` without blocking the event loop (`edit` may be async). */
export async function updateStateFile<T>(
  file: string,
  edit: (current: string | undefined) => StateEdit<T> | Promise<StateEdit<T>>,
  options: StateFileOptions = {},
): Promise<T> {
  const target = writeTarget(file);
  return withFileLock(
    target,
    async () => {
      const { text, result } = await edit(await readStateText(target, options));
      if (text !== undefined) await writeFileAtomic(target, text, options);
      return result;
    },
    options,
  );
}
