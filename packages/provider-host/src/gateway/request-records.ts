/**
 * The records of a POST's JSON-RPC requests, read from the parsed body
 * (hostile input: only strings are taken as names, arguments are hashed and
 * never kept).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Caller, TraceContext } from "@indus/contract";
import type { ItemOwners } from "../access/item-owners";
import type { GatewayTracing } from "../observe/gateway-tracing";
import type { RequestRecord } from "../observe/request-record";
import { childTrace, incomingTrace } from "../observe/trace-context";

const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
/** Longer names are cut in records (the audit log is no place for a caller's megabytes). */
const MAX_NAME = 512;

interface Message {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: {
    readonly name?: unknown;
    readonly uri?: unknown;
    readonly ref?: { readonly name?: unknown; readonly uri?: unknown };
    readonly arguments?: unknown;
    readonly argument?: unknown;
    readonly protocolVersion?: unknown;
    readonly _meta?: Record<string, unknown>;
  };
}

export interface RecordContext {
  readonly caller: Caller;
  readonly owners: ItemOwners;
  readonly tracing: GatewayTracing | undefined;
}

/** One record per request (messages with an id and a method) in `body`. */
export function requestRecords(body: unknown, request: IncomingMessage, context: RecordContext): RequestRecord[] {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const records: RequestRecord[] = [];
  for (const message of messages) {
    const { id, method } = (message ?? {}) as Message;
    if (typeof method !== "string" || (typeof id !== "string" && typeof id !== "number")) continue;
    records.push(recordOf(message as Message, method, id, request, context));
  }
  return records;
}

/** A record for a request refused before its body was read (by the token check). */
export function refusedRecord(request: IncomingMessage, caller: Caller, tracing: GatewayTracing | undefined) {
  const method = headerOf(request, "mcp-method") ?? `HTTP ${request.method ?? "?"}`;
  const era = headerOf(request, "mcp-protocol-version");
  return start(method, undefined, { era }, undefined, request, caller, tracing);
}

function recordOf(
  message: Message,
  method: string,
  id: string | number,
  request: IncomingMessage,
  context: RecordContext,
): RequestRecord {
  const params = message.params;
  const tool = method === "tools/call" ? nameOf(params?.name) : undefined;
  const target =
    method === "tools/call"
      ? undefined
      : (nameOf(params?.name) ?? nameOf(params?.uri) ?? nameOf(params?.ref?.name) ?? nameOf(params?.ref?.uri));
  const server =
    tool !== undefined
      ? context.owners.tool(tool)
      : target === undefined
        ? undefined
        : method.startsWith("prompts/") || params?.ref?.name !== undefined
          ? context.owners.prompt(target)
          : context.owners.resource(target);
  const args = params?.arguments ?? params?.argument;
  const era =
    nameOf(params?._meta?.[PROTOCOL_VERSION_META_KEY]) ??
    headerOf(request, "mcp-protocol-version") ??
    (method === "initialize" ? nameOf(params?.protocolVersion) : undefined);
  const fields = { era, server, tool, target, argsHash: args === undefined ? undefined : hashOf(args) };
  return start(method, id, fields, params?._meta, request, context.caller, context.tracing);
}

function start(
  method: string,
  id: string | number | undefined,
  fields: Partial<Pick<RequestRecord, "era" | "server" | "tool" | "target" | "argsHash">>,
  meta: unknown,
  request: IncomingMessage,
  caller: Caller,
  tracing: GatewayTracing | undefined,
): RequestRecord {
  const incoming = incomingTrace(meta, request.headers);
  const name = fields.tool === undefined ? method : `${method} ${fields.tool}`;
  const span = tracing?.begin(name, incoming, spanAttributes(method, fields, caller));
  const trace: TraceContext = span?.trace ?? childTrace(incoming);
  return {
    time: Date.now(),
    caller,
    id,
    era: fields.era,
    method: method.slice(0, MAX_NAME),
    server: fields.server,
    tool: fields.tool,
    target: fields.target,
    argsHash: fields.argsHash,
    trace,
    span,
  };
}

function spanAttributes(method: string, fields: Partial<RequestRecord>, caller: Caller): Record<string, string> {
  return {
    "mcp.method.name": method,
    ...(fields.tool !== undefined && { "gen_ai.tool.name": fields.tool }),
    ...(fields.server !== undefined && { "indus.gateway.server": fields.server }),
    ...(caller.clientId !== undefined && { "indus.caller.client_id": caller.clientId }),
  };
}

function nameOf(value: unknown): string | undefined {
  return typeof value === "string" ? value.slice(0, MAX_NAME) : undefined;
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value.slice(0, MAX_NAME) : undefined;
}

function hashOf(value: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(value) ?? "")
    .digest("hex");
}
