/**
 * Replace a file's whole content atomically: a private sibling temp file,
 * fsync, rename. A reader sees the old text or the new, never half of
 * either, and a crash leaves no torn file. An existing file keeps its mode;
 * a new one gets `mode` (default 0o600: state is the user's business).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { StateFileError } from "./state-file-error";

export interface WriteOptions {
  /** Mode of a file the write creates (default 0o600); an existing file keeps its own. */
  readonly mode?: number;
  /** Mode of folders created on the way (default 0o700). */
  readonly dirMode?: number;
}

function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

function modeOf(file: string, fallback: number): number {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return fallback;
  }
}

function unwritable(file: string, error: unknown): StateFileError {
  return new StateFileError(
    "unwritable",
    file,
    `${file}: cannot write (${(error as Error).message}); the file is unchanged`,
    {
      cause: error,
    },
  );
}

/** Write `text` as the whole of `file` (which must be a write target: see `writeTarget`). */
export function writeFileAtomicSync(file: string, text: string, options: WriteOptions = {}): void {
  const temp = tempBeside(file);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: options.dirMode ?? 0o700 });
    const fd = fs.openSync(temp, "wx", modeOf(file, options.mode ?? 0o600));
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw unwritable(file, error);
  }
}

/** `writeFileAtomicSync` without blocking the event loop. */
export async function writeFileAtomic(file: string, text: string, options: WriteOptions = {}): Promise<void> {
  const temp = tempBeside(file);
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: options.dirMode ?? 0o700 });
    const handle = await fs.promises.open(temp, "wx", modeOf(file, options.mode ?? 0o600));
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw unwritable(file, error);
  }
}
