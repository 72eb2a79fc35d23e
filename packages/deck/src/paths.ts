/** Path helpers: every tool path is relative to the context's cwd unless absolute. */
import os from "node:os";
import path from "node:path";

export function resolvePath(cwd: string, input: string): string {
  let p = input.trim();
  if (p === "~") p = os.homedir();
  else if (p.startsWith("~/")) p = path.join(os.homedir(), p.slice(2));
  return path.resolve(cwd, p);
}

/** A path as the model should see it: relative to cwd when inside it. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = path.relative(cwd, absolute);
  if (rel === "") return ".";
  if (rel.startsWith("..") || path.isAbsolute(rel)) return absolute;
  return rel.split(path.sep).join("/");
}
