/**
 * The session's roots: the working directory plus every `--add-dir` folder
 * (and `/add-dir` during the session), as the `file://` URIs MCP servers get
 * from `roots/list`. Kept absolute and without duplicates.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface Root {
  readonly uri: string;
  readonly name: string;
}

export class SessionRoots {
  private readonly dirs: string[] = [];

  constructor(cwd: string, extra: readonly string[] = []) {
    this.add(cwd);
    for (const dir of extra) this.add(path.resolve(cwd, dir));
  }

  /** Add a folder; `false` when it is already a root. */
  add(dir: string): boolean {
    const absolute = path.resolve(dir);
    if (this.dirs.includes(absolute)) return false;
    this.dirs.push(absolute);
    return true;
  }

  folders(): readonly string[] {
    return [...this.dirs];
  }

  list(): readonly Root[] {
    return this.dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) || dir }));
  }
}
