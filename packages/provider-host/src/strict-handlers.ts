/**
 * Request handlers that answer malformed params with JSON-RPC InvalidParams.
 * The SDK parses a request against the handler's schema before calling it and
 * lets the schema error escape, which clients then see as -32603 Internal
 * error. Registering under a lenient copy of the schema (any params object)
 * and parsing strictly here gives the client the right code and the path.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AnyObjectSchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { ErrorCode, McpError, RequestSchema } from "@modelcontextprotocol/sdk/types.js";

type Handler<T extends AnyObjectSchema> =
  Parameters<Server["setRequestHandler"]> extends [unknown, infer H]
    ? H extends (request: never, extra: infer E) => infer R
      ? (request: SchemaOutput<T>, extra: E) => R
      : never
    : never;

interface ParseIssue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
}

interface ZodObjectLike {
  extend(shape: Record<string, unknown>): unknown;
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: ParseIssue[] } };
}

/**
 * `tools/call` is the exception: the SDK's `Server` already re-parses it
 * strictly and answers InvalidParams, so it is registered leniently and not
 * parsed a third time on the hot path.
 */
export function handleStrictly<T extends AnyObjectSchema>(server: Server, schema: T, handler: Handler<T>): void {
  const strict = schema as unknown as ZodObjectLike;
  const lenient = strict.extend({ params: RequestSchema.shape.params }) as T;
  const run = handler as unknown as (request: unknown, extra: unknown) => ReturnType<Handler<T>>;
  if (isToolCall(strict)) {
    server.setRequestHandler(lenient, handler);
    return;
  }
  server.setRequestHandler(lenient, (request: { method: string }, extra: unknown) => {
    const parsed = strict.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.map(String).join(".")}`;
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid ${request.method} request${where}: ${issue?.message ?? "malformed"}`,
      );
    }
    return run(parsed.data, extra);
  });
}

function isToolCall(schema: ZodObjectLike): boolean {
  const method = (schema as unknown as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
  return method === "tools/call";
}
