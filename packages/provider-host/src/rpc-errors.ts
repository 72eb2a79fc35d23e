/**
 * How failures behind the box surface to an MCP client: as JSON-RPC errors
 * with a code the client can branch on. A server's own JSON-RPC code, when the
 * fault carries one as its cause, is kept (a gateway should not launder a
 * downstream "resource not found" into "internal error").
 */
import { isProtocolFault } from "@indus/contract";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** MCP's code for `resources/read` of an unknown URI (the 2026 codec remaps it to -32602, SEP-2164). */
export const RESOURCE_NOT_FOUND = ProtocolErrorCode.ResourceNotFound;
/** The 2025 SDK's "connection closed" code, which v2 no longer names. */
export const CONNECTION_CLOSED = -32000;
/** The 2025 SDK's "request timeout" code, which v2 no longer names. */
export const REQUEST_TIMEOUT = -32001;

export type CatalogSite = "resource" | "prompt" | "list";

/**
 * `uri`: the resource a `resources/read` asked for, sent back in a not-found
 * error's `data` (SEP-2164 asks servers to).
 */
export function toRpcError(error: unknown, site: CatalogSite, uri?: string): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const downstream = downstreamCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const notFound = () => new ProtocolError(RESOURCE_NOT_FOUND, message, uri === undefined ? undefined : { uri });
  if (downstream === RESOURCE_NOT_FOUND) return notFound();
  // Since SEP-2164 a server answers an unknown resource -32602 (the SDK does in both eras).
  if (downstream === ProtocolErrorCode.InvalidParams && site === "resource" && uri !== undefined) {
    return new ProtocolError(downstream, message, { uri });
  }
  if (downstream !== undefined) return new ProtocolError(downstream, message);
  if (isProtocolFault(error)) {
    switch (error.kind) {
      case "protocol":
        if (site === "resource") return notFound();
        if (site === "prompt") return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
        return new ProtocolError(ProtocolErrorCode.InternalError, message);
      case "timeout":
        return new ProtocolError(REQUEST_TIMEOUT, message);
      default:
        return new ProtocolError(ProtocolErrorCode.InternalError, message);
    }
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, message);
}

/** The JSON-RPC error a fault carries from the other side (on itself or a cause), if any. */
export function downstreamRpcError(error: unknown): { code: number; data?: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    // A fault names the server's code `rpcCode`; the SDK's errors (and faults that stand in for one) `code`.
    const { rpcCode, code = rpcCode, data } = current as { rpcCode?: unknown; code?: unknown; data?: unknown };
    if (typeof code === "number" && Number.isSafeInteger(code) && code < 0) {
      return data === undefined ? { code } : { code, data };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function downstreamCode(error: unknown): number | undefined {
  return downstreamRpcError(error)?.code;
}
