/**
 * From MCP content blocks to the kernel's: a text block stays text; images,
 * audio, resources, links and anything unrecognised ride as JSON blocks, so
 * nothing is dropped on the way to the model. `isError`,
 * `structuredContent`, the result as the server sent it (`wire`, for a
 * gateway to return unchanged) and the questions a caller asked to answer
 * itself (`questions`) and a task handed back (`task`) pass straight through.
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
  const projected = {
    content: result.content.map(projectBlock),
    isError: result.isError,
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    ...(result.wire === undefined ? {} : { wire: result.wire }),
  };
  // The server's questions, or its task, handed back to a caller that takes them itself (a gateway).
  return {
    ...projected,
    ...(result.questions === undefined ? {} : { questions: result.questions }),
    ...(result.task === undefined ? {} : { task: result.task }),
  };
}
