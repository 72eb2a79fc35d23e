/**
 * `write`: create or overwrite a file. Parents are created; overwriting an
 * existing file passes the read-before-edit gate; the result shows a short diff.
 */
import path from "node:path";
import type { Card, DeckContext } from "../vocabulary";
import { inputObject, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { displayPath, resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { shortDiff } from "./diff";
import { gateRefusal, readStateFor, recordAfterWrite } from "./read-gate";
import { looksBinary, plural, splitLines } from "./text";

export function writeTool(deck: DeckContext): Card {
  return defineCard({
    name: "write",
    label: "Write file",
    readOnly: false,
    description:
      "Write a file, replacing it if it exists. Parent directories are created. An existing file must have been read this session (and be unchanged on disk since) before it can be overwritten. Prefer edit for changing part of a file.",
    parameters: objectSchema(
      {
        path: { type: "string", description: "File to write (absolute or relative to the working directory)." },
        content: { type: "string", description: "The complete new content of the file." },
      },
      ["path", "content"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const target = resolvePath(ctx.cwd, reqString(args, ["path", "file_path", "filePath"]));
      const content = reqString(args, "content", { allowEmpty: true });
      const shown = displayPath(ctx.cwd, target);
      const state = readStateFor(deck.framework.readState, ctx);

      const before = await ctx.fs.stat(target);
      let previous: string | undefined;
      if (before) {
        if (before.isDirectory) return errorResult(`write: ${shown} is a directory`);
        const refusal = gateRefusal(state, ctx, { absolute: target, now: before, verb: "overwrite" });
        if (refusal) return errorResult(`write: ${refusal}`);
        const bytes = await ctx.fs.readFile(target);
        if (!looksBinary(bytes)) previous = Buffer.from(bytes).toString("utf8");
      }
      await ctx.fs.mkdir(path.dirname(target));
      await ctx.fs.writeFile(target, content);
      await recordAfterWrite(state, ctx, target);

      const lines = plural(splitLines(content).length, "line");
      if (!before) return textResult(`Created ${shown} (${lines}, ${Buffer.byteLength(content)} bytes)`);
      if (previous === content) return textResult(`Wrote ${shown} (${lines}); content unchanged`);
      const diff = previous === undefined ? "(previous content was binary)" : shortDiff(shown, previous, content);
      return textResult(`Overwrote ${shown} (${lines})\n${diff}`);
    },
  });
}
