/**
 * Folders given with `--add-dir` (or `/add-dir`): resolved against the
 * working directory and checked to exist, so a typo is caught at once rather
 * than handed to the servers as a root that is not there.
 */
import fs from "node:fs";
import path from "node:path";
import { UsageError } from "../../exit";

/** The absolute folder, or why it cannot be one. */
export function resolveDir(dir: string, cwd: string): { readonly dir: string } | { readonly error: string } {
  const absolute = path.resolve(cwd, dir);
  try {
    if (fs.statSync(absolute).isDirectory()) return { dir: absolute };
    return { error: `${absolute} is not a folder` };
  } catch {
    return { error: `${absolute} does not exist` };
  }
}

/** Every `--add-dir` folder, absolute; a usage error names the first that is not a folder. */
export function addDirsOf(dirs: readonly string[], cwd: string): string[] {
  return dirs.map((dir) => {
    const resolved = resolveDir(dir, cwd);
    if ("error" in resolved) throw new UsageError(`--add-dir: ${resolved.error}`);
    return resolved.dir;
  });
}
