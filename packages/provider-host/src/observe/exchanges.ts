/**
 * The link between an HTTP exchange the gateway admitted and the SDK
 * handlers serving its JSON-RPC requests: the exchange's `AuthInfo` (a fresh
 * object per HTTP request, which the SDK hands every handler as
 * `ctx.http.authInfo`) carries the exchange's request records, on a
 * private symbol rather than in a `WeakMap`: a map entry per request, its key
 * dying a few milliseconds later, was measurable garbage-collector work.
 */
import type { AuthInfo, RequestId, ServerContext } from "@modelcontextprotocol/server";
import type { RequestOutcome, RequestRecord, UpstreamCall } from "./request-record";
import { nextSpan } from "./trace-context";

export interface Exchange {
  /** The exchange's request with JSON-RPC id `id`. */
  record(id: RequestId): RequestRecord | undefined;
  /** Ends a record (the first end wins). */
  finish(record: RequestRecord, outcome: RequestOutcome, errorCode?: number): void;
}

const EXCHANGE = Symbol("indus.gateway.exchange");

type Carrier = AuthInfo & { [EXCHANGE]?: Exchange };

/** Binds `exchange` to `auth`, an `AuthInfo` made for this HTTP request alone. */
export function bindExchange(auth: AuthInfo, exchange: Exchange): void {
  (auth as Carrier)[EXCHANGE] = exchange;
}

/** The record of the request a handler serves, when the gateway observes it. */
export function recordOf(ctx: ServerContext): { record: RequestRecord; exchange: Exchange } | undefined {
  const exchange = (ctx.http?.authInfo as Carrier | undefined)?.[EXCHANGE];
  if (exchange === undefined) return undefined;
  const record = exchange.record(ctx.mcpReq.id);
  return record === undefined ? undefined : { record, exchange };
}

/**
 * A call to a server behind the gateway made for the request `ctx` serves:
 * a child of its span when tracing, else a new span id in its trace (so the
 * server still sees the caller's trace id).
 */
export function upstreamOf(ctx: ServerContext, name: string): UpstreamCall | undefined {
  const record = recordOf(ctx)?.record;
  if (record === undefined) return undefined;
  return record.span?.upstream(name) ?? { trace: nextSpan(record.trace), end: endNothing };
}

/** An upstream call's end when not tracing: nothing to end. */
function endNothing(): void {}

/** Looks a POST's records up by JSON-RPC id: the lone request of most POSTs without a map. */
export function recordsById(records: readonly RequestRecord[]): (id: RequestId) => RequestRecord | undefined {
  if (records.length === 1) {
    const only = records[0]!;
    return (id) => (id === only.id ? only : undefined);
  }
  const byId = new Map(records.map((record) => [record.id!, record]));
  return (id) => byId.get(id);
}
