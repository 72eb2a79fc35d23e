/**
 * Request handlers that answer malformed params with JSON-RPC InvalidParams
 * (-32602) in both eras. A spec method registered the plain way has its
 * request checked by the SDK with an error that clients see as -32603
 * Internal error; the SDK's 3-argument form (`{ params }` schema) answers
 * -32602 naming the problem, so the host registers every spec method but
 * `tools/call` (which the SDK's `Server` re-parses strictly itself) that way.
 */
import {
  CompleteRequestParamsSchema,
  GetPromptRequestParamsSchema,
  PaginatedRequestParamsSchema,
  ReadResourceRequestParamsSchema,
  SetLevelRequestParamsSchema,
  SubscribeRequestParamsSchema,
  UnsubscribeRequestParamsSchema,
} from "@modelcontextprotocol/core";
import type { CallToolRequest, Server, ServerContext, StandardSchemaV1 } from "@modelcontextprotocol/server";

/** `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`. */
export const PAGINATED_PARAMS = PaginatedRequestParamsSchema;
export const READ_RESOURCE_PARAMS = ReadResourceRequestParamsSchema;
export const GET_PROMPT_PARAMS = GetPromptRequestParamsSchema;
export const COMPLETE_PARAMS = CompleteRequestParamsSchema;
export const SET_LEVEL_PARAMS = SetLevelRequestParamsSchema;
export const SUBSCRIBE_PARAMS = SubscribeRequestParamsSchema;
export const UNSUBSCRIBE_PARAMS = UnsubscribeRequestParamsSchema;

type Result = Record<string, unknown>;

/** A params "schema" that accepts what it is given, for a method the SDK's `Server` already checks. */
export const CHECKED_BY_SERVER: StandardSchemaV1<CallToolRequest["params"]> = {
  "~standard": {
    version: 1,
    vendor: "indus",
    validate: (value) => ({ value: value as CallToolRequest["params"] }),
  },
};

/** A result "schema" that takes a client's answer as sent: the gateway relays it, the asking server judges it. */
export const AS_SENT: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "indus",
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

export function handleStrictly<P extends StandardSchemaV1>(
  server: Server,
  method: string,
  params: P,
  handler: (params: StandardSchemaV1.InferOutput<P>, ctx: ServerContext) => Result | Promise<Result>,
): void {
  server.setRequestHandler(method, { params }, handler);
}
