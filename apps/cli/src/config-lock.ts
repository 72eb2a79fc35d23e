/**
 * Serialized config writes: every read-modify-write of a config file runs
 * under a lock file (`<target>.lock`, proper-lockfile), so concurrent
 * `mcp add`s never lose each other's rows. A lock left by a crashed writer
 * is stale after `STALE_MS` and taken over. The lock is on the symlink's
 * target, which is the file actually written.
 */
import fs from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";

const STALE_MS = 10_000;
const WAIT_MS = 15_000;
const MAX_LINKS = 40;

export class ConfigLockTimeout extends Error {
  override readonly name = "ConfigLockTimeout";
  constructor(readonly file: string) {
    super(`${file}: another indusr is still writing it (lock ${file}.lock held for ${WAIT_MS / 1000} s)`);
  }
}

/**
 * The file a write to `file` must replace: symlinks followed (even dangling
 * ones, whose target is created), so an edit never turns a link into a file.
 */
export function writeTarget(file: string): string {
  let current = path.resolve(file);
  for (let hops = 0; hops < MAX_LINKS; hops += 1) {
    let link: string;
    try {
      link = fs.readlinkSync(current);
    } catch {
      return current;
    }
    current = path.resolve(path.dirname(current), link);
  }
  return current;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Run `body` while holding the lock for `target` (synchronous: config edits are small). */
export function withConfigLock<T>(target: string, body: () => T): T {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const deadline = Date.now() + WAIT_MS;
  let release: (() => void) | undefined;
  while (!release) {
    try {
      release = lockfile.lockSync(target, { stale: STALE_MS, realpath: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
      if (Date.now() > deadline) throw new ConfigLockTimeout(target);
      sleepSync(5 + Math.random() * 20);
    }
  }
  try {
    return body();
  } finally {
    try {
      release();
    } catch {
      // Already released or taken over as stale; the write itself is done.
    }
  }
}
