/**
 * SEP-2243 on the gateway's own tools: a tool whose `inputSchema` marks an
 * argument `x-mcp-header: <Name>` is called (2026-07-28, HTTP) with that
 * argument mirrored in an `Mcp-Param-<Name>` header, so routers can read it.
 * A server MUST refuse a call whose header is missing, undecodable or
 * disagrees with the body: 400 with -32020 (HeaderMismatch). The SDK does
 * this only for an `McpServer`'s registered tools, and the host's server is
 * a plain `Server` republishing a box, so the check is made here, against
 * the schema the host lists for the tool (declarations read by the
 * contract's `paramHeaderDeclarations`, as the endpoint reads them to send
 * the headers). Same rules as the SDK's: an absent or null argument expects
 * no header; a value inside `=?base64?…?=` is Base64 UTF-8; integers compare
 * as numbers.
 */
import type { IncomingMessage } from "node:http";
import { paramHeaderArgument, type ParamHeaderDeclaration } from "@indus/contract";

/** The -32020 answer to a call whose headers and body disagree. */
export interface ParamMismatch {
  readonly header: string;
  readonly message: string;
}

export const HEADER_MISMATCH = -32020;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** The first declaration the request's `Mcp-Param-*` headers fail for `args`, if any. */
export function paramMismatch(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
  request: IncomingMessage,
): ParamMismatch | undefined {
  for (const { path, header, type } of declarations) {
    const value = paramHeaderArgument(args, path);
    const body = asText(value);
    if (body === undefined) continue;
    const name = `Mcp-Param-${header}`;
    const raw = request.headers[name.toLowerCase()];
    const sent = Array.isArray(raw) ? raw.join(", ") : raw;
    if (sent === undefined)
      return { header: name, message: `the body carries ${path.join(".")} but ${name} is absent` };
    const decoded = decode(sent);
    if (decoded === undefined) return { header: name, message: `${name} carries an invalid Base64 value` };
    const equal =
      type === "integer" && typeof value === "number" && DECIMAL.test(decoded)
        ? Number(decoded) === value
        : decoded === body;
    if (!equal) return { header: name, message: `${name} says ${JSON.stringify(decoded)}, the body ${body}` };
  }
  return undefined;
}

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  return undefined;
}

function decode(value: string): string | undefined {
  if (!(value.startsWith("=?base64?") && value.endsWith("?="))) return value;
  const payload = value.slice(9, -2);
  if (!BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64"));
  } catch {
    return undefined;
  }
}
