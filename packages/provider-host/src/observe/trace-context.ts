/**
 * W3C trace context (`traceparent`) as a gateway request carries it: from the
 * request's `_meta` (MCP) or its HTTP header, checked against the W3C
 * grammar; a request with none starts a trace of its own, so every audit line
 * and every upstream request has a trace id.
 */
import { randomBytes } from "node:crypto";
import type { TraceContext } from "@indus/contract";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
/** `tracestate` is at most 32 list members (W3C): 512 bytes covers every well-formed one. */
const MAX_TRACESTATE = 512;

/** A parsed `traceparent`. */
export interface TraceParent {
  readonly traceId: string;
  readonly spanId: string;
  readonly flags: string;
}

export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== "string") return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (match === null || match[1] === ZERO_TRACE || match[2] === ZERO_SPAN) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, flags: match[3]! };
}

/** The caller's trace context: `_meta` first (it is per message), then the HTTP headers. */
export function incomingTrace(meta: unknown, headers: Readonly<Record<string, unknown>>): TraceContext | undefined {
  const fromMeta = meta as { traceparent?: unknown; tracestate?: unknown } | undefined;
  const [parent, state] =
    parseTraceparent(fromMeta?.traceparent) !== undefined
      ? [fromMeta!.traceparent as string, fromMeta!.tracestate]
      : [headers["traceparent"], headers["tracestate"]];
  if (parseTraceparent(parent) === undefined) return undefined;
  return typeof state === "string" && state.length <= MAX_TRACESTATE
    ? { traceparent: (parent as string).trim(), tracestate: state }
    : { traceparent: (parent as string).trim() };
}

/** A new span in `trace` (or a new trace): the context a hop below this one runs in. */
export function childTrace(trace: TraceContext | undefined): TraceContext {
  const parent = trace === undefined ? undefined : parseTraceparent(trace.traceparent);
  const ids = randomHex(24);
  const traceId = parent?.traceId ?? ids.slice(0, 32);
  const context = { traceparent: `00-${traceId}-${ids.slice(32, 48)}-${parent?.flags ?? "01"}` };
  return trace?.tracestate === undefined ? context : { ...context, tracestate: trace.tracestate };
}

/**
 * A new span in the gateway's own `trace` (made by `childTrace` or the
 * tracer, so well formed): the span id replaced, nothing parsed again.
 */
export function nextSpan(trace: TraceContext): TraceContext {
  const { traceparent, tracestate } = trace;
  const next = `${traceparent.slice(0, 36)}${randomHex(8)}${traceparent.slice(52)}`;
  return tracestate === undefined ? { traceparent: next } : { traceparent: next, tracestate };
}

export function traceIdOf(trace: TraceContext): string {
  return trace.traceparent.slice(3, 35);
}

/**
 * Random bytes as hex, drawn from a pool refilled 4 KiB at a time and kept as
 * hex text: a draw (two or three a request) is a slice of a string, no
 * syscall and no call into the buffer's hex encoder each.
 */
let pool = "";
let drawn = 0;
function randomHex(bytes: number): string {
  const chars = bytes * 2;
  if (drawn + chars > pool.length) {
    pool = randomBytes(4096).toString("hex");
    drawn = 0;
  }
  const hex = pool.slice(drawn, drawn + chars);
  drawn += chars;
  return hex;
}
