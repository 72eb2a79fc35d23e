/**
 * One writer at a time per file, across processes: a lock folder beside the
 * file (`<file>.lock`, proper-lockfile). A lock left by a crashed writer is
 * stale after `STALE_MS` and taken over; a writer that waits longer than
 * `waitMs` gives up with a `locked` error and changes nothing.
 */
import fs from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";
import { StateFileError } from "./state-file-error";

const STALE_MS = 10_000;
export const DEFAULT_WAIT_MS = 15_000;

export interface LockOptions {
  /** How long to wait for another writer before failing (default 15 s). */
  readonly waitMs?: number;
  /** Mode of folders created on the way (default 0o700). */
  readonly dirMode?: number;
}

type Release = () => void;

/** Jittered, so waiting writers do not retry in step. */
function pause(): number {
  return 5 + Math.random() * 20;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function prepare(target: string, options: LockOptions): number {
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: options.dirMode ?? 0o700 });
  } catch (error) {
    throw new StateFileError(
      "unwritable",
      target,
      `${target}: cannot create its folder (${(error as Error).message})`,
      {
        cause: error,
      },
    );
  }
  return Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
}

/** One attempt: the release function, or undefined while another process holds the lock. */
function tryLock(target: string): Release | undefined {
  try {
    // The write is atomic, so a lock taken over as stale cannot tear the file: ignore the compromise.
    return lockfile.lockSync(target, { stale: STALE_MS, realpath: false, onCompromised: () => undefined });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
    throw new StateFileError("unwritable", target, `${target}: cannot take its lock (${(error as Error).message})`, {
      cause: error,
    });
  }
}

function lockTimeout(target: string, waitMs: number): StateFileError {
  return new StateFileError(
    "locked",
    target,
    `${target}: another process is still writing it (lock ${target}.lock held for ${Math.round(waitMs / 1000)} s)`,
  );
}

function release(unlock: Release): void {
  try {
    unlock();
  } catch {
    // Already released or taken over as stale; the write itself is done.
  }
}

/** Run `body` holding the lock of `target` (synchronous: for small edits by synchronous callers). */
export function withFileLockSync<T>(target: string, body: () => T, options: LockOptions = {}): T {
  const deadline = prepare(target, options);
  let unlock = tryLock(target);
  while (!unlock) {
    if (Date.now() > deadline) throw lockTimeout(target, options.waitMs ?? DEFAULT_WAIT_MS);
    sleepSync(pause());
    unlock = tryLock(target);
  }
  try {
    return body();
  } finally {
    release(unlock);
  }
}

/** Run `body` holding the lock of `target`, waiting without blocking the event loop. */
export async function withFileLock<T>(
  target: string,
  body: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const deadline = prepare(target, options);
  let unlock = tryLock(target);
  while (!unlock) {
    if (Date.now() > deadline) throw lockTimeout(target, options.waitMs ?? DEFAULT_WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, pause()));
    unlock = tryLock(target);
  }
  try {
    return await body();
  } finally {
    release(unlock);
  }
}
