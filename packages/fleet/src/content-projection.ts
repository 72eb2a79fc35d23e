/**
 * From MCP content blocks to the kernel's: a text block stays text; images,
 * audio, resources, links and anything unrecognised ride as JSON blocks, so
 * nothing is dropped on the way to the model. `isError` and
 * `structuredContent` pass straight through.
 */
import type { JsonValue, RemoteCallResult, ToolContentBlock, ToolResult } from "@indus/contract";

export function projectBlock(block: JsonValue): ToolContentBlock {
  if (
    typeof block === "object" &&
    block !== null &&
    !Array.isArray(block) &&
    block["type"] === "text" &&
    typeof block["text"] === "string"
  ) {
    return { type: "text", text: block["text"] };
  }
  return { type: "json", value: block };
}

export function projectResult(result: RemoteCallResult): ToolResult & { readonly isError: boolean } {
  const content = result.content.map(projectBlock);
  return result.structuredContent === undefined
    ? { content, isError: result.isError }
    : { content, isError: result.isError, structuredContent: result.structuredContent };
}
