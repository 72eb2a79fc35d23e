/**
 * `edit`: replace an exact string in a file. The string must occur exactly once
 * unless `replace_all` is set, so an edit never lands somewhere unexpected; the
 * file must pass the read-before-edit gate; the result shows a short diff.
 */
import path from "node:path";
import type { Card, DeckContext } from "../vocabulary";
import { ArgError, inputObject, optBool, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { displayPath, resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { shortDiff } from "./diff";
import { gateRefusal, readStateFor, recordAfterWrite } from "./read-gate";
import { looksBinary, plural } from "./text";

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

export function editTool(deck: DeckContext): Card {
  return defineCard({
    name: "edit",
    label: "Edit file",
    readOnly: false,
    description:
      "Replace an exact string in a file. old_string must match the file exactly (including whitespace and indentation) and occur exactly once, unless replace_all is true; include surrounding lines to make it unique. The file must have been read this session and be unchanged on disk since. With an empty old_string and a file that does not exist, creates the file with new_string.",
    parameters: objectSchema(
      {
        path: { type: "string", description: "File to edit (absolute or relative to the working directory)." },
        old_string: { type: "string", description: "The exact text to replace." },
        new_string: { type: "string", description: "The replacement text (must differ from old_string)." },
        replace_all: {
          type: "boolean",
          description: "Replace every occurrence instead of exactly one (default false).",
        },
      },
      ["path", "old_string", "new_string"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const target = resolvePath(ctx.cwd, reqString(args, ["path", "file_path", "filePath"]));
      const oldString = reqString(args, ["old_string", "oldString"], { allowEmpty: true });
      const newString = reqString(args, ["new_string", "newString"], { allowEmpty: true });
      const replaceAll = optBool(args, ["replace_all", "replaceAll"]) ?? false;
      if (oldString === newString) throw new ArgError("old_string and new_string are identical; nothing to change");
      const shown = displayPath(ctx.cwd, target);
      const state = readStateFor(deck.framework.readState, ctx);

      const before = await ctx.fs.stat(target);
      if (before === null) {
        if (oldString !== "") return errorResult(`edit: ${shown} does not exist`);
        await ctx.fs.mkdir(path.dirname(target));
        await ctx.fs.writeFile(target, newString);
        await recordAfterWrite(state, ctx, target);
        return textResult(`Created ${shown}`);
      }
      if (before.isDirectory) return errorResult(`edit: ${shown} is a directory`);
      const refusal = gateRefusal(state, ctx, { absolute: target, now: before, verb: "edit" });
      if (refusal) return errorResult(`edit: ${refusal}`);

      const bytes = await ctx.fs.readFile(target);
      if (looksBinary(bytes)) return errorResult(`edit: ${shown} is a binary file`);
      const original = Buffer.from(bytes).toString("utf8");

      const replaced = replaceIn(original, { oldString, newString, replaceAll }, shown);
      if (typeof replaced === "string") return errorResult(replaced);
      const { updated, replacements } = replaced;

      await ctx.fs.writeFile(target, updated);
      await recordAfterWrite(state, ctx, target);
      return textResult(
        `Edited ${shown} (${plural(replacements, "replacement")})\n${shortDiff(shown, original, updated)}`,
      );
    },
  });
}

interface Replacement {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** The file's text after the replacement, or why it cannot be made (the error text). */
function replaceIn(
  original: string,
  asked: Replacement,
  shown: string,
): { updated: string; replacements: number } | string {
  if (asked.oldString === "") {
    if (original.length > 0)
      return `edit: old_string is empty but ${shown} is not; give the text to replace, or use write`;
    return { updated: asked.newString, replacements: 1 };
  }
  const { oldString, newString, count } = matchLineEndings(original, asked);
  if (count === 0)
    return `edit: old_string was not found in ${shown}. It must match exactly, including whitespace and indentation; read the file again to copy the current text.`;
  if (count > 1 && !asked.replaceAll)
    return `edit: old_string occurs ${count} times in ${shown}; include more surrounding context to make it unique, or set replace_all to replace every occurrence`;
  if (asked.replaceAll) return { updated: original.split(oldString).join(newString), replacements: count };
  const at = original.indexOf(oldString);
  return { updated: original.slice(0, at) + newString + original.slice(at + oldString.length), replacements: 1 };
}

/** A model writes "\n"; a CRLF file has "\r\n". Match the file's line endings when that is what finds the text. */
function matchLineEndings(
  original: string,
  { oldString, newString }: Replacement,
): { oldString: string; newString: string; count: number } {
  const count = countOccurrences(original, oldString);
  if (count > 0 || !original.includes("\r\n") || !oldString.includes("\n") || oldString.includes("\r\n"))
    return { oldString, newString, count };
  const crlfOld = oldString.replace(/\n/g, "\r\n");
  const crlfCount = countOccurrences(original, crlfOld);
  if (crlfCount === 0) return { oldString, newString, count };
  return { oldString: crlfOld, newString: newString.replace(/\r?\n/g, "\r\n"), count: crlfCount };
}
