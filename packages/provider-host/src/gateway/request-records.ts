/**
 * The records of a POST's JSON-RPC requests, read from the parsed body
 * (hostile input: only strings are taken as names; arguments are held, when
 * an audit log will hash them, only until it has).
 */
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
  /** Whether records hold the arguments (only the audit log reads them, to hash them). */
  readonly keepsArgs: boolean;
}

/** One record per request (messages with an id and a method) in `body`. */
export function requestRecords(body: unknown, request: IncomingMessage, context: RecordContext): RequestRecord[] {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const records: RequestRecord[] = [];
  for (const message of messages) {
    const { id, method } = (message ?? {}) as Message;
    if (typeof method !== "string" || (typeof id !== "string" && typeof id !== "number")) continue;
    records.push(recordOf(message as Message, { method, id }, request, context));
  }
  return records;
}

/** A record for a request refused before its body was read (by the token check). */
export function refusedRecord(request: IncomingMessage, caller: Caller, tracing: GatewayTracing | undefined) {
  const method = headerOf(request, "mcp-method") ?? `HTTP ${request.method ?? "?"}`;
  const era = headerOf(request, "mcp-protocol-version");
  return start({ method, id: undefined, fields: { era }, meta: undefined }, request, { caller, tracing });
}

type Params = Message["params"];
type RecordFields = Partial<Pick<RequestRecord, "era" | "server" | "tool" | "target" | "args">>;

/** What a record starts from: the request's method, id, named fields and `_meta`. */
interface RecordHead {
  readonly method: string;
  readonly id: string | number | undefined;
  readonly fields: RecordFields;
  readonly meta: unknown;
}

function recordOf(
  { params }: Message,
  { method, id }: { readonly method: string; readonly id: string | number },
  request: IncomingMessage,
  context: RecordContext,
): RequestRecord {
  const tool = method === "tools/call" ? nameOf(params?.name) : undefined;
  const target = method === "tools/call" ? undefined : targetOf(params);
  const server = tool !== undefined ? context.owners.tool(tool) : ownerOf(method, params, target, context.owners);
  const args = context.keepsArgs ? (params?.arguments ?? params?.argument) : undefined;
  const fields = { era: eraOf(method, params, request), server, tool, target, args };
  return start({ method, id, fields, meta: params?._meta }, request, context);
}

/** The prompt or resource a request names (by name, URI, or a completion's ref). */
function targetOf(params: Params): string | undefined {
  return nameOf(params?.name) ?? nameOf(params?.uri) ?? nameOf(params?.ref?.name) ?? nameOf(params?.ref?.uri);
}

/** The server owning a request's prompt or resource `target`. */
function ownerOf(method: string, params: Params, target: string | undefined, owners: ItemOwners): string | undefined {
  if (target === undefined) return undefined;
  return method.startsWith("prompts/") || params?.ref?.name !== undefined
    ? owners.prompt(target)
    : owners.resource(target);
}

/** The era a request speaks: its `_meta` (2026), the HTTP header, or what `initialize` asks for. */
function eraOf(method: string, params: Params, request: IncomingMessage): string | undefined {
  return (
    nameOf(params?._meta?.[PROTOCOL_VERSION_META_KEY]) ??
    headerOf(request, "mcp-protocol-version") ??
    (method === "initialize" ? nameOf(params?.protocolVersion) : undefined)
  );
}

function start(
  { method, id, fields, meta }: RecordHead,
  request: IncomingMessage,
  { caller, tracing }: Pick<RecordContext, "caller" | "tracing">,
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
    args: fields.args,
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
