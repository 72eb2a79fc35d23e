/**
 * Projections between the contract's tool-box shapes and MCP's wire shapes.
 * Content passes through as MCP content whenever it already is MCP content,
 * so images, audio and resources reach the client intact (the earlier edition
 * stringified everything).
 */
import type { JsonObject, JsonValue, ToolContentBlock, ToolDescriptor, ToolOutcome } from "@indus/contract";
import { ContentBlockSchema } from "@modelcontextprotocol/core";
import type { CallToolResult, ContentBlock, Tool } from "@modelcontextprotocol/server";
import { servableTool } from "./servable-tool";

/**
 * A descriptor as an MCP tool. A tool a server sent (`wire`) is republished
 * exactly as sent (raw schemas with `$schema`/`$defs`/`$ref`, `outputSchema`,
 * annotations, title, icons, `_meta`) under the box's name for it, less its
 * `execution.taskSupport` (see `withoutTaskSupport`) and with any field an MCP
 * client would reject repaired (see `servableTool`). For the
 * box's own tools the JSON Schema is served as-is (no draft-07
 * re-emission); only a missing or non-object root `type` is set to `"object"`,
 * because MCP requires object-typed input schemas and clients reject the
 * whole listing otherwise.
 */
export function toMcpTool(descriptor: ToolDescriptor): Tool {
  if (descriptor.wire !== undefined) {
    return withoutTaskSupport({ ...servableTool(descriptor.wire), name: descriptor.name }) as unknown as Tool;
  }
  const parameters = descriptor.parameters;
  const inputSchema = (
    parameters.type === "object" ? parameters : { ...parameters, type: "object" }
  ) as Tool["inputSchema"];
  const tool: Tool = { name: descriptor.name, description: descriptor.description, inputSchema };
  const annotations = descriptor.annotations;
  if (annotations !== undefined && Object.keys(annotations).length > 0) {
    tool.annotations = { ...annotations };
    if (annotations.title !== undefined) tool.title = annotations.title;
  }
  return tool;
}

/**
 * The gateway serves no tasks: a task-only tool of a mounted server runs to
 * completion behind the endpoint's `invoke`, so to the gateway's clients it
 * is a plain tool. Left as `"required"`, SDK clients refuse to call it
 * without a task (and then send one the gateway cannot serve); `"optional"`
 * offers a task the gateway cannot serve. `"forbidden"` is as true of the
 * gateway as of the server, so it stays, and the listing stays the server's.
 */
function withoutTaskSupport(tool: JsonObject): JsonObject {
  const execution = tool["execution"];
  if (typeof execution !== "object" || execution === null || Array.isArray(execution)) return tool;
  if (!("taskSupport" in execution) || execution.taskSupport === "forbidden") return tool;
  const { taskSupport: _served, ...rest } = execution;
  const { execution: _dropped, ...plain } = tool;
  return Object.keys(rest).length > 0 ? { ...plain, execution: rest } : plain;
}

/**
 * One contract content block as MCP content: text stays text; a JSON value
 * that is a well-formed MCP content block (image, audio, resource,
 * resource_link, text) passes through untouched; any other JSON value becomes
 * a text block holding its JSON.
 */
export function toMcpContent(block: ToolContentBlock): ContentBlock {
  if (block.type === "text") return { type: "text", text: block.text };
  if (isMcpContentBlock(block.value)) return block.value as unknown as ContentBlock;
  return { type: "text", text: JSON.stringify(block.value) };
}

function isMcpContentBlock(value: JsonValue): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return ContentBlockSchema.safeParse(value).success;
}

/**
 * A runner's outcome as the `tools/call` result: the server's own when it
 * came from one; otherwise projected, `isError` and structured output along.
 */
export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  // A server's own result passes through unchanged (every block, `_meta`).
  if (outcome.wire !== undefined) return outcome.wire as unknown as CallToolResult;
  const result: CallToolResult = {
    content: outcome.content.map(toMcpContent),
    isError: outcome.isError === true,
  };
  if (outcome.structuredContent !== undefined) {
    result.structuredContent = outcome.structuredContent;
  }
  return result;
}

/** A tool-level failure the model can read and correct (MCP tool execution error). */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
