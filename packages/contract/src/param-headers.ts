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

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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
