/**
 * A grep's outcome as the model reads it: file names, counts or matching
 * lines (with context separators), within a line and an output budget, and a
 * note saying what was left out and how to narrow the search.
 */
import { GREP_LIMITS, type GrepFileHits, type GrepOutcome, type GrepQuery } from "./grep-query";
import { plural } from "./text";

function clip(text: string): string {
  return text.length <= GREP_LIMITS.maxLineChars ? text : `${text.slice(0, GREP_LIMITS.maxLineChars)}…`;
}

/** Output lines within the character budget. */
class Output {
  readonly lines: string[] = [];
  private chars = 0;

  /** False (and nothing added) once the line would pass the budget. */
  push(line: string): boolean {
    if (this.chars + line.length + 1 > GREP_LIMITS.maxOutputChars) return false;
    this.lines.push(line);
    this.chars += line.length + 1;
    return true;
  }
}

export function renderGrep(outcome: GrepOutcome, q: GrepQuery, limit: number): string {
  const files = [...outcome.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  if (files.length === 0) return `No matches for /${q.pattern}/`;
  const out = new Output();
  const notes =
    q.mode === "files" || q.mode === "count" ? renderFiles(files, q, limit, out) : renderLines(files, q, limit, out);
  if (outcome.truncated) notes.push("the search produced too much output and was stopped early");
  if (notes.length > 0) out.lines.push("", `[${notes.join("; ")}. Narrow the pattern, path or include globs.]`);
  return out.lines.join("\n");
}

/** `files` and `count` modes: one line per file (with a total first for `count`); the notes. */
function renderFiles(files: readonly GrepFileHits[], q: GrepQuery, limit: number, out: Output): string[] {
  const notes: string[] = [];
  let shown = 0;
  for (const f of files) {
    if (shown >= limit || !out.push(q.mode === "files" ? f.file : `${f.file}:${f.count}`)) break;
    shown++;
  }
  if (shown < files.length) notes.push(`showing ${shown} of ${plural(files.length, "file")}`);
  if (q.mode === "count") {
    const total = files.reduce((sum, f) => sum + f.count, 0);
    out.lines.unshift(`${plural(total, "matching line")} in ${plural(files.length, "file")}`);
  }
  return notes;
}

/** `content` mode: `file:line:text` (context lines with `-`), `--` between groups; the notes. */
function renderLines(files: readonly GrepFileHits[], q: GrepQuery, limit: number, out: Output): string[] {
  const context = q.before > 0 || q.after > 0;
  let shownLines = 0;
  let totalMatches = 0;
  let stopped = false;
  for (const f of files) {
    totalMatches += f.count;
    if (stopped) continue;
    if (context && out.lines.length > 0 && !out.push("--")) stopped = true;
    const shown: { lines: number; stopped: boolean } = stopped
      ? { lines: 0, stopped }
      : fileLines(f, { context, room: limit - shownLines }, out);
    shownLines += shown.lines;
    stopped = shown.stopped;
  }
  if (!stopped) return [];
  return [
    `output capped at ${plural(shownLines, "line")}; ${plural(totalMatches, "matching line")} in ${plural(files.length, "file")} in all`,
  ];
}

/** One file's lines, up to `room` of them; how many were shown and whether output stopped. */
function fileLines(
  f: GrepFileHits,
  how: { readonly context: boolean; readonly room: number },
  out: Output,
): { lines: number; stopped: boolean } {
  let prev: number | undefined;
  let lines = 0;
  for (const l of f.lines) {
    if (how.context && prev !== undefined && l.line > prev + 1 && !out.push("--")) return { lines, stopped: true };
    if (lines >= how.room || !out.push(`${f.file}${l.match ? ":" : "-"}${l.line}${l.match ? ":" : "-"}${clip(l.text)}`))
      return { lines, stopped: true };
    lines++;
    prev = l.line;
  }
  return { lines, stopped: false };
}
