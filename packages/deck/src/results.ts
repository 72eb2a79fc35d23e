/**
 * Building and folding tool results. A result is a list of content blocks;
 * `foldResult` turns one into the single JSON value a caller prints or logs.
 */
import type { JsonValue, ToolContentBlock, ToolResult } from "@indus/contract";

export function textResult(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export function jsonResult(value: JsonValue, isError = false): ToolResult {
  return isError ? { content: [{ type: "json", value }], isError } : { content: [{ type: "json", value }] };
}

/**
 * One value for a result: a single text block is its string, a single JSON
 * block its value, anything else an array of tagged fragments so nothing is dropped.
 */
export function foldResult(result: Pick<ToolResult, "content">): JsonValue {
  const blocks = result.content;
  if (blocks.length === 1) {
    const only = blocks[0] as ToolContentBlock;
    return only.type === "text" ? only.text : only.value;
  }
  return blocks.map((block): JsonValue =>
    block.type === "text" ? { type: "text", text: block.text } : { type: "json", value: block.value },
  );
}

/** The text of a result, for humans and for tests: JSON blocks pretty-printed. */
export function resultText(result: Pick<ToolResult, "content">): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : JSON.stringify(block.value, null, 2)))
    .join("\n");
}
