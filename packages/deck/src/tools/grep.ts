/**
 * `grep`: regex search over file contents, `.gitignore`-aware. ripgrep does
 * the work when present; the JS walker otherwise. Both feed one renderer, so
 * output is identical whichever engine ran: sorted by path, capped, with
 * `path:line:text` for matches and `path-line-text` for context lines.
 */
import fs from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import type { Card, DeckContext } from "../vocabulary";
import { ArgError, inputObject, optBool, optEnum, optInt, optStringList, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { optionsOf } from "../options";
import { displayPath, resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { RG_BASE_ARGS, resolveSearchEngine, runRipgrep } from "./ripgrep";
import { looksBinary } from "./text";
import { walk } from "./walk";

import {
  GREP_LIMITS,
  GREP_MODES,
  type GrepFileHits,
  type GrepOutcome,
  type GrepQuery,
  type LineHit,
} from "./grep-query";
import { renderGrep } from "./grep-render";

// ---------------------------------------------------------------- ripgrep

function ripgrepArgs(q: GrepQuery, target: string): string[] {
  const args: string[] = [...RG_BASE_ARGS, "--null", "--with-filename", "--max-columns=4000", "--max-columns-preview"];
  if (q.ignoreCase) args.push("--ignore-case");
  if (q.literal) args.push("--fixed-strings");
  if (q.multiline) args.push("--multiline", "--multiline-dotall");
  // rg's --glob overrides ignore rules, so name globs go through file types (which do not);
  // every include glob is also applied to the results, so path globs work the same.
  const names = q.include.filter((g) => !g.includes("/"));
  const positive = names.filter((g) => !g.startsWith("!"));
  const negative = names.filter((g) => g.startsWith("!")).map((g) => g.slice(1));
  for (const glob of positive) args.push(`--type-add=indusinclude:${glob}`);
  for (const glob of negative) args.push(`--type-add=indusexclude:${glob}`);
  if (positive.length > 0) args.push("--type=indusinclude");
  if (negative.length > 0) args.push("--type-not=indusexclude");
  if (q.mode === "files") args.push("--files-with-matches");
  else if (q.mode === "count") args.push("--count");
  else {
    args.push("--line-number", "--no-heading");
    if (q.before > 0) args.push(`--before-context=${q.before}`);
    if (q.after > 0) args.push(`--after-context=${q.after}`);
  }
  args.push("--regexp", q.pattern, "--", target);
  return args;
}

async function grepWithRipgrep(binary: string, q: GrepQuery, cwd: string, signal: AbortSignal): Promise<GrepOutcome> {
  const target = displayPath(cwd, q.root);
  const run = await runRipgrep(binary, ripgrepArgs(q, target), { cwd, signal, maxBytes: GREP_LIMITS.maxRawBytes });
  if (run.exitCode === 2 && run.stdout === "") {
    throw new Error(run.stderr.split("\n").slice(0, 6).join("\n") || "ripgrep failed");
  }
  const byFile = new Map<string, { count: number; lines: LineHit[] }>();
  const entry = (file: string) => {
    let hit = byFile.get(file);
    if (!hit) byFile.set(file, (hit = { count: 0, lines: [] }));
    return hit;
  };
  const clean = (file: string) => (file.startsWith("./") ? file.slice(2) : file);
  if (q.mode === "files") {
    for (const file of run.stdout.split("\0")) if (file.trim() !== "") entry(clean(file.replace(/^\n/, ""))).count = 1;
  } else {
    for (const row of run.stdout.split("\n")) {
      const nul = row.indexOf("\0");
      if (nul === -1) continue; // "--" separators and blank lines
      const file = clean(row.slice(0, nul));
      const rest = row.slice(nul + 1);
      if (q.mode === "count") {
        entry(file).count = Number(rest);
        continue;
      }
      const m = /^(\d+)([:-])/.exec(rest);
      if (!m) continue;
      const isMatch = m[2] === ":";
      const hit = entry(file);
      hit.lines.push({ line: Number(m[1]), text: rest.slice(m[0].length).replace(/\r$/, ""), match: isMatch });
      if (isMatch) hit.count++;
    }
  }
  const included = includeMatcher(q.include);
  const rootShown = target === "." ? "" : `${target}/`;
  const relToRoot = (file: string) => {
    if (target === ".") return file;
    return file.startsWith(rootShown) ? file.slice(rootShown.length) : path.basename(file);
  };
  const files = [...byFile]
    .filter(([file]) => q.include.length === 0 || included(relToRoot(file)))
    .map(([file, hit]) => ({ file, count: hit.count, lines: hit.lines }));
  return { files, truncated: run.truncated };
}

// ---------------------------------------------------------------- JS fallback

/** ripgrep patterns as JS regexes: leading inline flags become regex flags. */
export function compilePattern(q: Pick<GrepQuery, "pattern" | "ignoreCase" | "literal" | "multiline">): RegExp {
  let source = q.pattern;
  let flags = q.multiline ? "gms" : "g";
  if (q.ignoreCase) flags += "i";
  if (q.literal) source = source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  else {
    const inline = /^\(\?([imsx]+)\)/.exec(source);
    if (inline) {
      source = source.slice(inline[0].length);
      for (const f of inline[1] as string) if ((f === "i" || f === "s" || f === "m") && !flags.includes(f)) flags += f;
    }
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new ArgError(`invalid regular expression: ${(error as Error).message}`);
  }
}

function includeMatcher(globs: readonly string[]): (rel: string) => boolean {
  if (globs.length === 0) return () => true;
  const positive = globs.filter((g) => !g.startsWith("!"));
  const negative = globs.filter((g) => g.startsWith("!")).map((g) => g.slice(1));
  const opts = { dot: true };
  const matchers = (list: string[]) =>
    list.map((g) => (g.includes("/") ? picomatch(g, opts) : picomatch(g, { ...opts, basename: true })));
  const yes = matchers(positive);
  const no = matchers(negative);
  return (rel) => (yes.length === 0 || yes.some((m) => m(rel))) && !no.some((m) => m(rel));
}

/** Hits in one file's text, with context lines merged like ripgrep's. */
function searchText(text: string, regex: RegExp, q: GrepQuery): { count: number; lines: LineHit[] } | undefined {
  regex.lastIndex = 0;
  if (!regex.test(text)) return undefined;
  const lines = text.split("\n");
  const matched = new Set<number>();
  if (q.multiline) {
    // Mark every line a match spans.
    const starts: number[] = [];
    let offset = 0;
    for (const line of lines) {
      starts.push(offset);
      offset += line.length + 1;
    }
    const lineAt = (pos: number) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= pos) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      const first = lineAt(m.index);
      const last = lineAt(m.index + Math.max(0, m[0].length - 1));
      for (let i = first; i <= last; i++) matched.add(i);
      if (m[0].length === 0) regex.lastIndex++;
    }
  } else {
    const perLine = new RegExp(regex.source, regex.flags.replace("g", ""));
    for (let i = 0; i < lines.length; i++) if (perLine.test(lines[i] as string)) matched.add(i);
  }
  if (lines.length > 0 && lines[lines.length - 1] === "") {
    lines.pop();
    matched.delete(lines.length);
  }
  if (matched.size === 0) return undefined;
  if (q.mode !== "content") return { count: matched.size, lines: [] };
  const shown = new Set<number>();
  for (const i of matched) {
    for (let j = Math.max(0, i - q.before); j <= Math.min(lines.length - 1, i + q.after); j++) shown.add(j);
  }
  const out = [...shown]
    .sort((a, b) => a - b)
    .map((i) => ({ line: i + 1, text: (lines[i] as string).replace(/\r$/, ""), match: matched.has(i) }));
  return { count: matched.size, lines: out };
}

/** Bytes every match must contain, when the pattern is a plain case-sensitive string: a fast skip before decoding. */
function requiredBytes(q: GrepQuery): Buffer | undefined {
  if (q.ignoreCase) return undefined;
  if (q.literal || /^[\w ,;:='"<>/@#%&!~`-]+$/.test(q.pattern))
    return q.pattern === "" ? undefined : Buffer.from(q.pattern, "utf8");
  return undefined;
}

async function grepWithJs(q: GrepQuery, cwd: string, signal: AbortSignal): Promise<GrepOutcome> {
  const regex = compilePattern(q);
  const required = requiredBytes(q);
  const included = includeMatcher(q.include);
  const files: GrepFileHits[] = [];
  const consider = (abs: string, rel: string) => {
    if (!included(rel)) return;
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(abs);
    } catch {
      return;
    }
    if (required !== undefined && bytes.indexOf(required) === -1) return;
    if (looksBinary(bytes)) return;
    const hit = searchText(bytes.toString("utf8"), regex, q);
    if (hit) files.push({ file: displayPath(cwd, abs), ...hit });
  };
  const stat = fs.statSync(q.root, { throwIfNoEntry: false });
  if (stat?.isFile()) {
    consider(q.root, path.basename(q.root));
  } else {
    await walk(q.root, { signal }, (entry) => {
      if (!entry.isDir) consider(entry.abs, entry.rel);
    });
  }
  return { files, truncated: false };
}

export async function runGrep(
  q: GrepQuery,
  cwd: string,
  signal: AbortSignal,
  engine: ReturnType<typeof resolveSearchEngine>,
): Promise<GrepOutcome> {
  return engine.kind === "ripgrep" ? grepWithRipgrep(engine.binary, q, cwd, signal) : grepWithJs(q, cwd, signal);
}

export function grepTool(deck: DeckContext): Card {
  const options = optionsOf(deck);
  return defineCard({
    name: "grep",
    label: "Search file contents",
    readOnly: true,
    description:
      'Search file contents with a regular expression (ripgrep syntax). Respects .gitignore; skips binary files and .git. output_mode: "files" (default) lists matching files, "content" shows matching lines as path:line:text (with optional context lines), "count" gives matching lines per file. Filter files with include globs (e.g. "*.ts" or "src/**/*.py"). Results are sorted by path and capped.',
    parameters: objectSchema(
      {
        pattern: { type: "string", description: "Regular expression to search for." },
        path: { type: "string", description: "Directory or file to search (default: the working directory)." },
        include: {
          anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
          description: "Glob(s) of files to search; a leading ! excludes.",
        },
        output_mode: { type: "string", enum: [...GREP_MODES], description: "files (default), content or count." },
        context: {
          type: "integer",
          minimum: 0,
          maximum: 20,
          description: "Lines of context around each match (content mode).",
        },
        before: { type: "integer", minimum: 0, maximum: 20, description: "Lines of context before each match." },
        after: { type: "integer", minimum: 0, maximum: 20, description: "Lines of context after each match." },
        ignore_case: { type: "boolean", description: "Case-insensitive search." },
        literal: { type: "boolean", description: "Treat the pattern as a literal string." },
        multiline: { type: "boolean", description: "Let the pattern span lines (. matches newlines)." },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: GREP_LIMITS.maxLimit,
          description: "Maximum files (files/count) or lines (content).",
        },
      },
      ["pattern"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const pattern = reqString(args, "pattern");
      const root = resolvePath(ctx.cwd, args.path === undefined ? "." : reqString(args, "path"));
      const modeName =
        args.output_mode === "files_with_matches"
          ? "files"
          : optEnum(args, ["output_mode", "outputMode", "mode"], GREP_MODES);
      const mode = modeName ?? "files";
      const context = optInt(args, ["context", "C"], { min: 0, max: 20 }) ?? 0;
      const q: GrepQuery = {
        pattern,
        root,
        include: optStringList(args, ["include", "glob", "includes"]) ?? [],
        mode,
        before: optInt(args, ["before", "B"], { min: 0, max: 20 }) ?? context,
        after: optInt(args, ["after", "A"], { min: 0, max: 20 }) ?? context,
        ignoreCase: optBool(args, ["ignore_case", "ignoreCase", "i"]) ?? false,
        literal: optBool(args, ["literal", "fixed_strings"]) ?? false,
        multiline: optBool(args, "multiline") ?? false,
      };
      const limit =
        optInt(args, ["limit", "head_limit"], { min: 1, max: GREP_LIMITS.maxLimit }) ??
        (mode === "content" ? GREP_LIMITS.content : GREP_LIMITS.files);
      if (!fs.existsSync(root)) return errorResult(`grep: ${displayPath(ctx.cwd, root)} does not exist`);
      const outcome = await runGrep(q, ctx.cwd, ctx.signal, resolveSearchEngine(options));
      return textResult(renderGrep(outcome, q, limit));
    },
  });
}
