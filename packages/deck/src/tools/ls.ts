/**
 * `ls`: a directory's entries, sorted, directories marked with `/`, entries
 * ignored by `.gitignore` hidden (and counted), capped; `depth` shows a tree.
 */
import fs from "node:fs";
import type { Card } from "../vocabulary";
import { inputObject, optBool, optInt, optString } from "../args";
import { defineCard, objectSchema } from "../card";
import { displayPath, resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { plural } from "./text";
import { walk } from "./walk";

export const LS_LIMITS = { maxEntries: 1_000, maxDepth: 5 } as const;

export function lsTool(): Card {
  return defineCard({
    name: "ls",
    label: "List directory",
    readOnly: true,
    description:
      "List a directory: entries sorted by name, directories end with /. Entries ignored by .gitignore are hidden unless all is true. depth > 1 shows nested entries as an indented tree. Capped at 1000 entries.",
    parameters: objectSchema({
      path: { type: "string", description: "Directory to list (default: the working directory)." },
      depth: {
        type: "integer",
        minimum: 1,
        maximum: LS_LIMITS.maxDepth,
        description: "Levels to descend (default 1).",
      },
      all: { type: "boolean", description: "Also show entries ignored by .gitignore." },
    }),
    async run(input, ctx) {
      const args = inputObject(input);
      const root = resolvePath(ctx.cwd, optString(args, ["path", "dir"]) ?? ".");
      const depth = optInt(args, "depth", { min: 1, max: LS_LIMITS.maxDepth }) ?? 1;
      const all = optBool(args, "all") ?? false;
      const shown = displayPath(ctx.cwd, root);
      const stat = fs.statSync(root, { throwIfNoEntry: false });
      if (!stat) return errorResult(`ls: ${shown} does not exist`);
      if (!stat.isDirectory()) return errorResult(`ls: ${shown} is not a directory (it is a file; use read)`);

      const lines: string[] = [];
      const stopped = await walk(
        root,
        { respectIgnore: !all, maxDepth: depth, listLinkedDirs: true, signal: ctx.signal },
        (entry) => {
          if (lines.length >= LS_LIMITS.maxEntries) return false;
          const level = entry.rel.split("/").length - 1;
          const name = entry.rel.slice(entry.rel.lastIndexOf("/") + 1);
          lines.push(`${"  ".repeat(level)}${name}${entry.isDir ? "/" : ""}`);
          return true;
        },
      );

      let hidden = 0;
      if (!all) {
        try {
          hidden =
            fs.readdirSync(root).filter((n) => n !== ".git").length - lines.filter((l) => !l.startsWith(" ")).length;
        } catch {
          hidden = 0;
        }
      }
      const header = `${shown}/`;
      if (lines.length === 0)
        return textResult(
          `${header} is empty${hidden > 0 ? ` (${plural(hidden, "ignored entry", "ignored entries")} hidden)` : ""}`,
        );
      const notes: string[] = [];
      if (stopped) notes.push(`showing the first ${LS_LIMITS.maxEntries} entries; use a deeper path or find`);
      if (hidden > 0 && !stopped)
        notes.push(`${plural(hidden, "entry", "entries")} ignored by .gitignore hidden; all=true shows them`);
      return textResult([header, ...lines, ...(notes.length > 0 ? ["", `[${notes.join("; ")}]`] : [])].join("\n"));
    },
  });
}
