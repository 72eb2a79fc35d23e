/**
 * What a tool's listing says of its MCP App view (SEP-1865 `_meta.ui`): the
 * `ui://` URI, and who may call the tool (`visibility`, default model and app).
 */
import { isRecord, type ToolDescriptor } from "@indus/contract";

/** A tool's view URI and who may call it (SEP-1865 `_meta.ui`). */
export function viewOf(tool: ToolDescriptor): { uri: string; visibility: string[] } | undefined {
  const meta = tool.wire?.["_meta"];
  const ui = isRecord(meta) ? meta["ui"] : undefined;
  const uri = isRecord(ui) ? ui["resourceUri"] : undefined;
  if (typeof uri !== "string" || !uri.startsWith("ui://")) return undefined;
  const visibility = isRecord(ui) && Array.isArray(ui["visibility"]) ? ui["visibility"] : ["model", "app"];
  return { uri, visibility: visibility.filter((item): item is string => typeof item === "string") };
}

/** Whether the model may see a tool: not when its view keeps it for the app alone. */
export function modelMayCall(tool: ToolDescriptor): boolean {
  return viewOf(tool)?.visibility.includes("model") ?? true;
}
