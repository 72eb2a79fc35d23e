/**
 * `find`: files whose path matches a glob, `.gitignore`-aware, sorted and
 * capped. ripgrep lists the files when present (`rg --files`), the JS walker
 * otherwise; picomatch does the matching either way so results are identical.
 */
import fs from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import type { Card, DeckContext } from "../vocabulary";
import { inputObject, optInt, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { optionsOf } from "../options";
import { displayPath, resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { RG_BASE_ARGS, resolveSearchEngine, runRipgrep } from "./ripgrep";
import { plural } from "./text";
import { walk } from "./walk";

export const FIND_LIMITS = { defaultLimit: 1_000, maxLimit: 10_000, maxRawBytes: 64 * 1024 * 1024 } as const;

/** A glob without `/` matches a file name anywhere (`*.ts`); with `/`, the path from the search root. */
export function globMatcher(pattern: string): (rel: string) => boolean {
  const p = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  return picomatch(p, { dot: true, basename: !p.includes("/") });
}

/**
 * Every non-ignored file under `root`, as paths relative to it. A bare name
 * glob is handed to ripgrep as a file type (types, unlike `--glob`, keep the
 * ignore rules), so only candidates cross the pipe; callers still match.
 */
export async function listFiles(
  root: string,
  deck: DeckContext,
  signal: AbortSignal,
  nameGlob?: string,
): Promise<{ files: string[]; truncated: boolean }> {
  const engine = resolveSearchEngine(optionsOf(deck));
  if (engine.kind === "ripgrep") {
    const typeArgs =
      nameGlob !== undefined && !nameGlob.includes("/") ? [`--type-add=indusfind:${nameGlob}`, "--type=indusfind"] : [];
    const run = await runRipgrep(engine.binary, [...RG_BASE_ARGS, ...typeArgs, "--files", "--null"], {
      cwd: root,
      signal,
      maxBytes: FIND_LIMITS.maxRawBytes,
    });
    const files = run.stdout
      .split("\0")
      .filter((f) => f !== "")
      .map((f) => (f.startsWith("./") ? f.slice(2) : f));
    return { files, truncated: run.truncated };
  }
  const files: string[] = [];
  await walk(root, { signal }, (entry) => {
    if (!entry.isDir) files.push(entry.rel);
  });
  return { files, truncated: false };
}

export function findTool(deck: DeckContext): Card {
  return defineCard({
    name: "find",
    label: "Find files by name",
    readOnly: true,
    description:
      'Find files by glob pattern, e.g. "*.ts" (any depth, by file name) or "src/**/*.test.ts" (path from the search directory). Respects .gitignore and skips .git. Results are sorted by path and capped.',
    parameters: objectSchema(
      {
        pattern: { type: "string", description: "Glob to match: a bare name pattern matches at any depth." },
        path: { type: "string", description: "Directory to search (default: the working directory)." },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: FIND_LIMITS.maxLimit,
          description: "Maximum results (default 1000).",
        },
      },
      ["pattern"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const pattern = reqString(args, ["pattern", "glob"]);
      const root = resolvePath(ctx.cwd, args.path === undefined ? "." : reqString(args, "path"));
      const limit = optInt(args, "limit", { min: 1, max: FIND_LIMITS.maxLimit }) ?? FIND_LIMITS.defaultLimit;
      const stat = fs.statSync(root, { throwIfNoEntry: false });
      if (!stat) return errorResult(`find: ${displayPath(ctx.cwd, root)} does not exist`);
      if (!stat.isDirectory()) return errorResult(`find: ${displayPath(ctx.cwd, root)} is not a directory`);

      const matches = globMatcher(pattern);
      const listed = await listFiles(root, deck, ctx.signal, pattern.startsWith("./") ? pattern.slice(2) : pattern);
      const hits = listed.files.filter((file) => matches(file)).sort();
      if (hits.length === 0) return textResult(`No files match ${pattern} under ${displayPath(ctx.cwd, root)}`);
      const shown = hits.slice(0, limit).map((rel) => displayPath(ctx.cwd, path.join(root, rel)));
      const notes: string[] = [];
      if (hits.length > limit) notes.push(`showing ${limit} of ${plural(hits.length, "match", "matches")}`);
      if (listed.truncated) notes.push("the file listing was too large and was cut short");
      if (notes.length > 0) shown.push("", `[${notes.join("; ")}. Narrow the pattern or path.]`);
      return textResult(shown.join("\n"));
    },
  });
}
