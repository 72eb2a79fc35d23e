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
import type { ParamHeaderDeclaration } from "@indus/contract";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function encode(value: string): string {
  const plain =
    value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value) && !value.startsWith("=?base64?");
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** `Mcp-Param-*` headers for one call's arguments. */
export function paramHeaderValues(declared: readonly ParamHeaderDeclaration[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of declared) {
    let node: unknown = args;
    for (const key of path) node = isRecord(node) ? node[key] : undefined;
    let text: string | undefined;
    if (typeof node === "string") text = node;
    else if (typeof node === "boolean") text = node ? "true" : "false";
    else if (typeof node === "number" && Number.isSafeInteger(node)) text = String(node);
    if (text !== undefined) headers[`Mcp-Param-${header}`] = encode(text);
  }
  return headers;
}

/**
 * Why a tool's `x-mcp-header` declarations are invalid (SEP-2243: clients
 * must exclude such a tool), or undefined. Checked along `properties` chains:
 * a non-empty RFC 9110 token, on a string, integer or boolean property, unique
 * regardless of case, never on the root schema.
 */
export function invalidParamHeaders(inputSchema: unknown): string | undefined {
  const seen = new Set<string>();
  const visit = (schema: unknown, path: string[]): string | undefined => {
    if (!isRecord(schema)) return undefined;
    if ("x-mcp-header" in schema) {
      const header = schema["x-mcp-header"];
      const where = path.length === 0 ? "the root schema" : path.join(".");
      if (path.length === 0) return `x-mcp-header on ${where}`;
      if (typeof header !== "string" || !TOKEN.test(header)) return `${where}: x-mcp-header is not a header token`;
      if (typeof schema["type"] !== "string" || !PRIMITIVE.has(schema["type"]))
        return `${where}: x-mcp-header on a non-primitive property`;
      if (seen.has(header.toLowerCase())) return `${where}: x-mcp-header "${header}" is declared twice`;
      seen.add(header.toLowerCase());
    }
    const properties = schema["properties"];
    if (!isRecord(properties)) return undefined;
    for (const [key, child] of Object.entries(properties)) {
      const why = visit(child, [...path, key]);
      if (why) return why;
    }
    return undefined;
  };
  return visit(inputSchema, []);
}
