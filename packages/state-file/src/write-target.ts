/**
 * The file a write must replace: symlinks followed (dangling ones too, whose
 * target is then created), so an update never turns a link into a file.
 */
import fs from "node:fs";
import path from "node:path";

const MAX_LINKS = 40;

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
