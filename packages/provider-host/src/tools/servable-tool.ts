/**
 * A mounted server's tool is republished as it sent it, but an SDK client
 * checks every entry of `tools/list` against MCP's Tool schema and throws
 * the whole listing away for one bad entry (a 2025-era server may list an
 * `inputSchema` of type "string", an annotation that is not a boolean, ...).
 * So each entry that fails is repaired: an unusable `inputSchema` becomes an
 * empty object schema (as the model's view already does) and any other
 * failing field is left out. A well-formed entry passes untouched.
 */
import type { JsonObject } from "@indus/contract";
import { ToolSchema } from "@modelcontextprotocol/core";

const EMPTY_INPUT: JsonObject = { type: "object" };
/** Each round leaves out one failing field; a tool has fewer fields than this. */
const MAX_REPAIRS = 16;
const repaired = new WeakMap<JsonObject, JsonObject>();

/** The tool as every MCP client accepts it (cached per listed tool, so a listing is checked once). */
export function servableTool(tool: JsonObject): JsonObject {
  const known = repaired.get(tool);
  if (known !== undefined) return known;
  const result = repair(tool);
  repaired.set(tool, result);
  return result;
}

function repair(tool: JsonObject): JsonObject {
  let current = tool;
  for (let round = 0; round < MAX_REPAIRS; round++) {
    const check = ToolSchema.safeParse(current);
    if (check.success) return current;
    const field = check.error.issues.map((issue) => issue.path[0]).find((key) => typeof key === "string");
    if (field === undefined || field === "name") return { name: current["name"] ?? "", inputSchema: EMPTY_INPUT };
    current = withoutField(current, field);
  }
  return { name: current["name"] ?? "", inputSchema: EMPTY_INPUT };
}

function withoutField(tool: JsonObject, field: string): JsonObject {
  const { [field]: _dropped, ...rest } = tool;
  return field === "inputSchema" ? { ...rest, inputSchema: EMPTY_INPUT } : rest;
}
