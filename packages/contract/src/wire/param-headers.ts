/**
 * SEP-2243: a tool's `inputSchema` may mark an argument `x-mcp-header: <Name>`.
 * Over Streamable HTTP in the 2026-07-28 era the client mirrors that argument
 * into an `Mcp-Param-<Name>` header (so routers need not read the body), and
 * the server refuses a call whose header disagrees. Both sides need the same
 * reading of the schema, hence one here: a declaration counts on a string,
 * integer or boolean property reached through `properties` chains only, with
 * a header name that is an HTTP token.
 */

/** One `x-mcp-header` declaration: where the argument is, its header name and type. */
export interface ParamHeaderDeclaration {
  readonly path: readonly string[];
  readonly header: string;
  readonly type: "string" | "integer" | "boolean";
}

import { isRecord } from "../json";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);

/** The `x-mcp-header` declarations of one tool's raw `inputSchema`. */
export function paramHeaderDeclarations(inputSchema: unknown): ParamHeaderDeclaration[] {
  const found: ParamHeaderDeclaration[] = [];
  const visit = (schema: unknown, path: string[]) => {
    if (!isRecord(schema)) return;
    const header = schema["x-mcp-header"];
    const type = schema["type"];
    if (path.length > 0 && typeof header === "string" && TOKEN.test(header) && PRIMITIVE.has(type)) {
      found.push({ path, header, type: type as ParamHeaderDeclaration["type"] });
    }
    const properties = schema["properties"];
    if (isRecord(properties)) for (const [key, child] of Object.entries(properties)) visit(child, [...path, key]);
  };
  visit(inputSchema, []);
  return found;
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
      if (!PRIMITIVE.has(schema["type"])) return `${where}: x-mcp-header on a non-primitive property`;
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

/** The argument a declaration's `path` reaches in a call's `args` (undefined when it is not there). */
export function paramHeaderArgument(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return node;
}
