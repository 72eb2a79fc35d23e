/**
 * `read`: a file with line numbers (`cat -n` style), paged by offset/limit,
 * long lines clipped, total output capped; binaries refused with a hint;
 * images returned as an MCP image block. Records what it saw for the
 * read-before-edit gate.
 */
import type { Card, DeckContext } from "../vocabulary";
import { inputObject, optInt, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { displayPath, resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { readStateFor } from "./read-gate";
import { clipLine, formatBytes, imageMime, looksBinary, plural, splitLines } from "./text";

export const READ_LIMITS = {
  defaultLines: 2_000,
  maxLineChars: 2_000,
  maxOutputChars: 100_000,
  maxImageBytes: 5 * 1024 * 1024,
  /** Larger files must be paged with grep or bash head/tail instead. */
  maxFileBytes: 64 * 1024 * 1024,
} as const;

export function readTool(deck: DeckContext): Card {
  return defineCard({
    name: "read",
    label: "Read file",
    readOnly: true,
    description:
      "Read a file from the local file system. Output is numbered lines (`cat -n` style). By default reads up to 2000 lines from the start; use offset (1-based line) and limit to page through long files. Lines longer than 2000 characters are clipped. Images (PNG, JPEG, GIF, WebP) are returned as images. Binary files are refused. Relative paths resolve against the working directory. Reading a file is required before editing or overwriting it.",
    parameters: objectSchema(
      {
        path: { type: "string", description: "File to read (absolute or relative to the working directory)." },
        offset: { type: "integer", minimum: 1, description: "1-based line number to start from." },
        limit: { type: "integer", minimum: 1, description: "Maximum number of lines to return (default 2000)." },
      },
      ["path"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const target = resolvePath(ctx.cwd, reqString(args, ["path", "file_path", "filePath"]));
      const offset = optInt(args, "offset", { min: 1 }) ?? 1;
      const limit = optInt(args, "limit", { min: 1 }) ?? READ_LIMITS.defaultLines;
      const shown = displayPath(ctx.cwd, target);

      const stat = await ctx.fs.stat(target);
      if (stat === null) return errorResult(`read: ${shown} does not exist`);
      if (stat.isDirectory) return errorResult(`read: ${shown} is a directory; use ls to list it`);
      if (stat.size > READ_LIMITS.maxFileBytes) {
        return errorResult(
          `read: ${shown} is ${formatBytes(stat.size)}, over the ${formatBytes(READ_LIMITS.maxFileBytes)} read limit; use grep, or bash with head/tail/sed`,
        );
      }
      const bytes = await ctx.fs.readFile(target);
      const state = readStateFor(deck.framework.readState, ctx);

      const mime = imageMime(bytes);
      if (mime !== undefined) {
        if (bytes.length > READ_LIMITS.maxImageBytes) {
          return errorResult(
            `read: image ${shown} is ${formatBytes(bytes.length)}, over the ${formatBytes(READ_LIMITS.maxImageBytes)} limit`,
          );
        }
        state.record(target, { mtimeMs: stat.mtimeMs, size: stat.size });
        return {
          content: [
            { type: "text", text: `Image ${shown} (${mime}, ${formatBytes(bytes.length)})` },
            { type: "json", value: { type: "image", data: Buffer.from(bytes).toString("base64"), mimeType: mime } },
          ],
        };
      }
      if (looksBinary(bytes)) {
        return errorResult(
          `read: ${shown} is a binary file (${formatBytes(bytes.length)}); it cannot be shown as text`,
        );
      }

      state.record(target, { mtimeMs: stat.mtimeMs, size: stat.size });
      const lines = splitLines(Buffer.from(bytes).toString("utf8"));
      if (lines.length === 0) return textResult(`(${shown} is empty)`);
      if (offset > lines.length) {
        return errorResult(`read: offset ${offset} is past the end of ${shown} (${plural(lines.length, "line")})`);
      }

      const out: string[] = [];
      let chars = 0;
      let last = offset - 1;
      const end = Math.min(lines.length, offset - 1 + limit);
      for (let i = offset - 1; i < end; i++) {
        const row = `${String(i + 1).padStart(6)}\t${clipLine(lines[i] as string, READ_LIMITS.maxLineChars)}`;
        if (chars + row.length + 1 > READ_LIMITS.maxOutputChars && out.length > 0) break;
        out.push(row);
        chars += row.length + 1;
        last = i + 1;
      }
      if (last < lines.length) {
        out.push("", `[Showing lines ${offset}-${last} of ${lines.length}. Use offset=${last + 1} to read more.]`);
      }
      return textResult(out.join("\n"));
    },
  });
}
