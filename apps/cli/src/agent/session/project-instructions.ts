/**
 * Project instructions: the `AGENTS.md` files a user and a repository write
 * for coding agents (Codex's name; `CLAUDE.md`, Claude Code's, is read where a
 * folder has no `AGENTS.md`). One from the user's config folder
 * (`~/.indusvx/`), then one per folder from the project root (the nearest
 * folder holding `.git`) down to the working directory, so the most specific
 * comes last. Each is capped, and the briefing names where each came from.
 */
import fs from "node:fs";
import path from "node:path";

export interface InstructionFile {
  readonly scope: "user" | "project";
  readonly file: string;
  readonly text: string;
  /** Bytes in the file (the text may hold fewer: see `truncated`). */
  readonly bytes: number;
  readonly truncated: boolean;
}

export interface LoadedInstructions {
  readonly files: readonly InstructionFile[];
  /** Files that exist but could not be read, as `file: reason`. */
  readonly problems: readonly string[];
}

/** Per file, as Codex caps `AGENTS.md` (32 KiB): a runaway file must not fill the context. */
export const MAX_INSTRUCTION_BYTES = 32 * 1024;

const NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/** The nearest folder at or above `cwd` holding `.git`, else `cwd` itself. */
export function projectRoot(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(cwd);
  }
}

/** From the project root down to `cwd`, root first. */
function foldersDown(root: string, cwd: string): string[] {
  const folders = [path.resolve(cwd)];
  while (folders[0] !== root && path.dirname(folders[0]!) !== folders[0]) folders.unshift(path.dirname(folders[0]!));
  return folders;
}

function readCapped(file: string): { text: string; bytes: number; truncated: boolean } {
  const fd = fs.openSync(file, "r");
  try {
    const bytes = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(bytes, MAX_INSTRUCTION_BYTES));
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    // Drop a character the cap cut in half.
    const text = buffer
      .subarray(0, read)
      .toString("utf8")
      .replace(/\uFFFD$/, "");
    return { text: text.trim(), bytes, truncated: bytes > MAX_INSTRUCTION_BYTES };
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder's `AGENTS.md`, else its `CLAUDE.md`, when one is a readable, non-empty file. */
function fromFolder(folder: string, scope: InstructionFile["scope"], problems: string[]): InstructionFile | undefined {
  for (const name of NAMES) {
    const file = path.join(folder, name);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      continue;
    }
    if (!stat.isFile()) continue;
    try {
      const read = readCapped(file);
      return read.text.length > 0 ? { scope, file, ...read } : undefined;
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
      return undefined;
    }
  }
  return undefined;
}

export function loadInstructions(options: { readonly cwd: string; readonly home: string }): LoadedInstructions {
  const problems: string[] = [];
  const files: InstructionFile[] = [];
  const user = fromFolder(path.join(options.home, ".indusvx"), "user", problems);
  if (user) files.push(user);
  for (const folder of foldersDown(projectRoot(options.cwd), options.cwd)) {
    const found = fromFolder(folder, "project", problems);
    if (found) files.push(found);
  }
  return { files, problems };
}

/** The briefing's section: each file under a heading naming it; none: nothing. */
export function instructionsSection(files: readonly InstructionFile[]): string[] {
  if (files.length === 0) return [];
  const out = [
    "",
    "# Instructions from the user and the project",
    "The user and the project's maintainers wrote these for coding agents. Follow them; where two disagree, the later (more specific) one wins, and the user's messages win over all.",
  ];
  for (const f of files) {
    out.push("", `## ${f.file} (${f.scope === "user" ? "the user's own" : "project"})`, f.text);
    if (f.truncated)
      out.push(`[truncated: the file has ${f.bytes} bytes; only the first ${MAX_INSTRUCTION_BYTES} are shown]`);
  }
  return out;
}
