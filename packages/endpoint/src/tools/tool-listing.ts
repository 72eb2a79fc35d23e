/**
 * From the raw items of every `tools/list` page to `RemoteTool`s: each item
 * is checked on its own (a bad one is skipped with a reason, never the whole
 * list), names are qualified and made legal, and input schemas normalized
 * for models (`parameters`). The item itself rides along untouched as
 * `wire`: a gateway republishes that, never the model's view.
 */
import { QUALIFIER, type RemoteTool, type ToolAnnotations } from "@indus/contract";
import { normalizeSchema } from "@indus/schema-normalizer";
import { assignToolNames } from "./tool-names";
import { readTool, type WireTool } from "../wire";

export interface ToolListing {
  readonly tools: readonly RemoteTool[];
  /** Items skipped or repaired, and why. */
  readonly issues: readonly string[];
}

export function buildRemoteTools(server: string, items: readonly unknown[]): ToolListing {
  const issues: string[] = [];
  const wire = new Map<string, WireTool>();
  for (const item of items) {
    const read = readTool(item);
    if (!read.ok) issues.push(read.issue);
    else if (wire.has(read.tool.name)) issues.push(`tool "${read.tool.name}" is listed twice; the first is kept`);
    else wire.set(read.tool.name, read.tool);
  }
  const qualified = (name: string) => `${server}${QUALIFIER}${name}`;
  const names = assignToolNames([...wire.keys()].map(qualified));
  const tools: RemoteTool[] = [];
  for (const tool of wire.values()) {
    let parameters;
    try {
      parameters = normalizeSchema(tool.inputSchema);
    } catch (error) {
      issues.push(
        `tool "${tool.name}": inputSchema could not be normalized (${error instanceof Error ? error.message : String(error)})`,
      );
      parameters = { type: "object", properties: {} };
    }
    const annotations = readAnnotations(tool);
    tools.push({
      ref: { server, name: tool.name },
      descriptor: {
        name: names.get(qualified(tool.name)) ?? tool.name,
        description: tool.description ?? tool.title ?? "",
        parameters,
        ...(annotations ? { annotations } : {}),
        wire: tool.raw,
      },
    });
  }
  return { tools, issues };
}

/** MCP's title and behaviour hints, when the server gave any. */
function readAnnotations(tool: WireTool): ToolAnnotations | undefined {
  const source = tool.annotations ?? {};
  const out: { -readonly [K in keyof ToolAnnotations]: ToolAnnotations[K] } = {};
  const title = tool.title ?? source["title"];
  if (typeof title === "string") out.title = title;
  for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof source[hint] === "boolean") out[hint] = source[hint];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
