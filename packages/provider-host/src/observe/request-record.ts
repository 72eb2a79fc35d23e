/**
 * One JSON-RPC request through the gateway, as the audit log, the metrics
 * and the traces see it: who asked, in which era, what (method, server,
 * tool, a hash of the arguments, never their values), how it ended and how
 * long it took, and the trace it ran in.
 */
import type { Caller, TraceContext } from "@indus/contract";

export type RequestOutcome =
  /** Answered with a result. */
  | "ok"
  /** A tool's own error result (`isError`). */
  | "tool-error"
  /** A round of a 2026-07-28 request ended asking the client for input. */
  | "input-required"
  /** Answered with a JSON-RPC error. */
  | "error"
  /** Refused before MCP: no valid token (401). */
  | "unauthorized"
  /** Refused before MCP: the token lacks a scope (403). */
  | "forbidden"
  /** Refused before MCP: over the caller's budget (429). */
  | "rate-limited"
  /** Refused by the HTTP layer otherwise (a bad session, a bad body) or cut off. */
  | "refused";

export interface RequestRecord {
  /** When the request arrived (epoch ms). */
  readonly time: number;
  readonly caller: Caller;
  /** The JSON-RPC id (none for a request refused before its body was read). */
  readonly id: string | number | undefined;
  /** The protocol version the request speaks, when it says. */
  readonly era: string | undefined;
  readonly method: string;
  /** The mounted server the request is for, when it names one the gateway can place. */
  readonly server: string | undefined;
  /** A `tools/call`'s tool. */
  readonly tool: string | undefined;
  /** What else the request names: a prompt, a resource URI, a completion's reference. */
  readonly target: string | undefined;
  /**
   * The request's arguments as sent, when an audit log will hash them: held
   * until its line is built, right after the answer left, never written.
   */
  readonly args: unknown;
  /** The gateway's own span for the request: its context is what servers behind the gateway are sent. */
  readonly trace: TraceContext;
  /** The OpenTelemetry span, when tracing is on. */
  readonly span: RequestSpan | undefined;
  outcome?: RequestOutcome;
  /** The JSON-RPC error code, when the outcome is `error`. */
  errorCode?: number;
  /** The HTTP status the exchange ended with. */
  status?: number;
  latencyMs?: number;
}

/** What watches finished gateway requests: the audit log, the metrics. */
export interface RequestObserver {
  finished(record: RequestRecord): void;
  /** Writes what is left and stops (the host is closing). */
  close?(): Promise<void>;
}

/** A request's span: ended with the request; each call to a server behind the gateway is a child. */
export interface RequestSpan {
  readonly trace: TraceContext;
  upstream(name: string): UpstreamCall;
  end(record: RequestRecord): void;
}

/** A call to a server behind the gateway: the trace context to send it in `_meta`, and its end. */
export interface UpstreamCall {
  readonly trace: TraceContext;
  end(failed: boolean): void;
}
