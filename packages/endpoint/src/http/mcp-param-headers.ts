/**
 * SEP-2243 routing headers on the raw call path. In the 2026 era over HTTP a
 * tool may mark argument properties with `x-mcp-header: <Name>`; the client
 * mirrors those arguments into `Mcp-Param-<Name>` headers so a gateway can
 * route without reading the body (McpServer-based servers refuse a call
 * without them: -32020). The SDK does this only inside `callTool()`, which a
 * bridge cannot use (it validates results), and does not export the builder;
 * these are the same rules: declarations reached through `properties` chains
 * on string, integer or boolean properties, values as text, base64 inside
 * `=?base64?…?=` when not plain printable ASCII.
 */
import { paramHeaderArgument, type ParamHeaderDeclaration } from "@indus/contract";

function encode(value: string): string {
  const plain =
    value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value) && !value.startsWith("=?base64?");
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** `Mcp-Param-*` headers for one call's arguments. */
export function paramHeaderValues(declared: readonly ParamHeaderDeclaration[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of declared) {
    const node = paramHeaderArgument(args, path);
    let text: string | undefined;
    if (typeof node === "string") text = node;
    else if (typeof node === "boolean") text = node ? "true" : "false";
    else if (typeof node === "number" && Number.isSafeInteger(node)) text = String(node);
    if (text !== undefined) headers[`Mcp-Param-${header}`] = encode(text);
  }
  return headers;
}
