/**
 * The link between an HTTP exchange the gateway admitted and the SDK
 * handlers serving its JSON-RPC requests: the exchange's `AuthInfo` (a fresh
 * object per HTTP request, which the SDK hands every handler as
 * `ctx.http.authInfo`) keys the exchange's request records.
 */
import type { AuthInfo, RequestId, ServerContext } from "@modelcontextprotocol/server";
import type { RequestOutcome, RequestRecord, UpstreamCall } from "./request-record";
import { childTrace } from "./trace-context";

export interface Exchange {
  /** The exchange's requests by JSON-RPC id. */
  readonly records: ReadonlyMap<RequestId, RequestRecord>;
  /** Ends a record (the first end wins). */
  finish(record: RequestRecord, outcome: RequestOutcome, errorCode?: number): void;
}

const exchanges = new WeakMap<AuthInfo, Exchange>();

export function bindExchange(auth: AuthInfo, exchange: Exchange): void {
  exchanges.set(auth, exchange);
}

/** The record of the request a handler serves, when the gateway observes it. */
export function recordOf(ctx: ServerContext): { record: RequestRecord; exchange: Exchange } | undefined {
  const auth = ctx.http?.authInfo;
  if (auth === undefined) return undefined;
  const exchange = exchanges.get(auth);
  const record = exchange?.records.get(ctx.mcpReq.id);
  return record === undefined ? undefined : { record, exchange: exchange! };
}

/**
 * A call to a server behind the gateway made for the request `ctx` serves:
 * a child of its span when tracing, else a new span id in its trace (so the
 * server still sees the caller's trace id).
 */
export function upstreamOf(ctx: ServerContext, name: string): UpstreamCall | undefined {
  const record = recordOf(ctx)?.record;
  if (record === undefined) return undefined;
  return record.span?.upstream(name) ?? { trace: childTrace(record.trace), end: () => {} };
}
