/**
 * How failures behind the box surface to an MCP client: as JSON-RPC errors
 * with a code the client can branch on. A server's own JSON-RPC code, when the
 * fault carries one as its cause, is kept (a gateway should not launder a
 * downstream "resource not found" into "internal error").
 */
import { isProtocolFault } from "@indus/contract";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** MCP's code for `resources/read` of an unknown URI. */
export const RESOURCE_NOT_FOUND = -32002;

export type CatalogSite = "resource" | "prompt" | "list";

export function toRpcError(error: unknown, site: CatalogSite): McpError {
  if (error instanceof McpError) return error;
  const downstream = downstreamCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (downstream !== undefined) return new McpError(downstream, message);
  if (isProtocolFault(error)) {
    switch (error.kind) {
      case "protocol":
        if (site === "resource") return new McpError(RESOURCE_NOT_FOUND, message);
        if (site === "prompt") return new McpError(ErrorCode.InvalidParams, message);
        return new McpError(ErrorCode.InternalError, message);
      case "timeout":
        return new McpError(ErrorCode.RequestTimeout, message);
      default:
        return new McpError(ErrorCode.InternalError, message);
    }
  }
  return new McpError(ErrorCode.InternalError, message);
}

function downstreamCode(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "number" && Number.isSafeInteger(code) && code < 0) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
