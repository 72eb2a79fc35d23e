/**
 * A `.gitignore`-aware file walker in plain JS, the engine behind `ls` and the
 * fallback for `grep`/`find` when ripgrep is absent. It mirrors ripgrep's
 * defaults as used here: hidden files included, `.git` skipped, `.gitignore`,
 * `.ignore` and `.rgignore` honoured at every level (deeper files win) and in
 * ancestors up to the repository root. Directory reads are synchronous in
 * short slices with a yield between them: far faster than one promise per
 * entry, and still cancellable.
 */
import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"] as const;
const SLICE_MS = 8;

/** The ignore rules of one directory, and how to express a path relative to it. */
interface IgnoreFrame {
  readonly rules: Ignore;
  /** Path of the walk root relative to this frame's directory ("" when they coincide). */
  readonly rootFromFrame: string;
}

function loadRules(dir: string): Ignore | undefined {
  let rules: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, name), "utf8");
    } catch {
      continue;
    }
    rules ??= ignore({ allowRelativePaths: true });
    rules.add(text);
  }
  return rules;
}

function findRepoRoot(start: string): string | undefined {
  for (let dir = start; ;) {
    if (fs.existsSync(path.join(dir, ".git"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const toPosix = (p: string) => (path.sep === "/" ? p : p.split(path.sep).join("/"));

/** Rules from the repository root down to `root`'s parent, so a sub-folder walk honours them. */
function ancestorFrames(root: string): IgnoreFrame[] {
  const repo = findRepoRoot(root);
  if (repo === undefined || repo === root) return [];
  const frames: IgnoreFrame[] = [];
  const chain: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (dir === repo || path.dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    const rules = loadRules(dir);
    if (rules) frames.push({ rules, rootFromFrame: toPosix(path.relative(dir, root)) });
  }
  return frames;
}

/** Decides whether a path (relative to the walk root) is ignored; deeper frames decide first. */
export class IgnoreChain {
  private constructor(private readonly frames: readonly (IgnoreFrame & { readonly depthPrefix: string })[]) {}

  static forRoot(root: string): IgnoreChain {
    const frames = ancestorFrames(root).map((f) => ({ ...f, depthPrefix: "" }));
    const own = loadRules(root);
    if (own) frames.push({ rules: own, rootFromFrame: "", depthPrefix: "" });
    return new IgnoreChain(frames);
  }

  /** The chain for a sub-directory (relative path `rel`), adding its own rules if it has any. */
  descend(absDir: string, rel: string): IgnoreChain {
    const rules = loadRules(absDir);
    if (!rules) return this;
    return new IgnoreChain([...this.frames, { rules, rootFromFrame: "", depthPrefix: rel }]);
  }

  ignores(rel: string, isDir: boolean): boolean {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i] as IgnoreFrame & { depthPrefix: string };
      let local = frame.depthPrefix === "" ? rel : rel.slice(frame.depthPrefix.length + 1);
      if (frame.rootFromFrame !== "") local = `${frame.rootFromFrame}/${local}`;
      const verdict = frame.rules.test(isDir ? `${local}/` : local);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

export interface WalkOptions {
  /** Honour ignore files (default true). */
  readonly respectIgnore?: boolean;
  readonly signal?: AbortSignal;
  /** 1 lists only the root's own entries. */
  readonly maxDepth?: number;
  /** Visit symlinked directories (never descending into them); `ls` shows them. */
  readonly listLinkedDirs?: boolean;
}

export interface WalkEntry {
  /** Relative to the walk root, `/`-separated. */
  readonly rel: string;
  readonly abs: string;
  readonly isDir: boolean;
}

/** A directory waiting to be listed, with its parent's ignore chain (its own files join when it is read). */
interface PendingDir {
  readonly abs: string;
  readonly rel: string;
  readonly depth: number;
  readonly chain: IgnoreChain | undefined;
  /** The chain already holds this directory's own ignore files (the root's). */
  readonly own: boolean;
}

/** What one listed directory's entries are visited with. */
interface Listing {
  readonly dir: PendingDir;
  readonly chain: IgnoreChain | undefined;
  readonly options: WalkOptions;
  readonly visit: (entry: WalkEntry) => boolean | void;
}

/**
 * Visits every non-ignored entry under `root` (directories before their
 * contents). Return `false` from `visit` to stop. Resolves true when stopped early.
 */
export async function walk(
  root: string,
  options: WalkOptions,
  visit: (entry: WalkEntry) => boolean | void,
): Promise<boolean> {
  const respect = options.respectIgnore ?? true;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const stack: PendingDir[] = [
    { abs: root, rel: "", depth: 1, chain: respect ? IgnoreChain.forRoot(root) : undefined, own: true },
  ];
  let sliceStart = performance.now();
  while (stack.length > 0) {
    const dir = stack.pop() as PendingDir;
    const entries = sortedEntries(dir.abs);
    if (entries === undefined) continue;
    const listing: Listing = { dir, chain: chainFor(dir, entries), options, visit };
    const subdirs: PendingDir[] = [];
    for (const entry of entries) {
      const step = visitEntry(entry, listing);
      if (step === "stop") return true;
      if (step !== undefined && dir.depth < maxDepth)
        subdirs.push({ abs: step.abs, rel: step.rel, depth: dir.depth + 1, chain: listing.chain, own: false });
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as PendingDir);
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) throw new Error("cancelled");
      sliceStart = performance.now();
    }
  }
  return false;
}

/** A directory's entries in name order; undefined when it cannot be read. */
function sortedEntries(abs: string): fs.Dirent[] | undefined {
  try {
    return fs
      .readdirSync(abs, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return undefined;
  }
}

/** The directory's chain, with its own ignore files when its listing has any. */
function chainFor(dir: PendingDir, entries: readonly fs.Dirent[]): IgnoreChain | undefined {
  if (!dir.chain || dir.own) return dir.chain;
  return entries.some((e) => IGNORE_FILES.includes(e.name as (typeof IGNORE_FILES)[number]))
    ? dir.chain.descend(dir.abs, dir.rel)
    : dir.chain;
}

/** Visit one entry: `"stop"` when the visitor stops the walk, the entry when it is a directory to descend into. */
function visitEntry(entry: fs.Dirent, { dir, chain, options, visit }: Listing): "stop" | WalkEntry | undefined {
  if (entry.name === ".git") return undefined;
  const rel = dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`;
  const abs = path.join(dir.abs, entry.name);
  const kind = entryKind(entry, abs);
  if (kind === undefined) return undefined;
  if (kind === "linked-dir") {
    const listed = options.listLinkedDirs === true && !chain?.ignores(rel, true);
    return listed && visit({ rel, abs, isDir: true }) === false ? "stop" : undefined;
  }
  const isDir = kind === "dir";
  if (chain?.ignores(rel, isDir)) return undefined;
  if (visit({ rel, abs, isDir }) === false) return "stop";
  return isDir ? { rel, abs, isDir } : undefined;
}

/** Like ripgrep, symlinked directories are not followed (`linked-dir`); symlinked files are listed. */
function entryKind(entry: fs.Dirent, abs: string): "dir" | "file" | "linked-dir" | undefined {
  if (entry.isSymbolicLink()) {
    try {
      return fs.statSync(abs).isDirectory() ? "linked-dir" : "file";
    } catch {
      return undefined;
    }
  }
  if (entry.isDirectory()) return "dir";
  return entry.isFile() ? "file" : undefined;
}
