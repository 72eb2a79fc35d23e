/**
 * When a call stops counting as in flight for the relay: as its answer is
 * read, not when the caller's promise settles. A server may write a call's
 * answer and a question of its own in one write; the SDK dispatches both from
 * one read, and the question's handler runs before the call's promise chain
 * has settled, so the router would still see the call in flight and hand a
 * question asked outside any call to that call's client (the decision record
 * "relay attribution" says: the most recently active client, the host).
 *
 * The tap here notes each request a call sends (in its scope, or as the call
 * starts: a 2025-era stdio call runs in no scope, and the SDK sends its request
 * synchronously) and, as the final answer to a call's last due request is
 * read, tells the router before the SDK sees that answer; a question of the
 * server is noted as it is read too, so it is routed by the calls in flight
 * then (its handler runs some promise jobs later, after any answer read after
 * it has been noted).
 */
import { isRecord } from "@indus/contract";
import type { Transport } from "@modelcontextprotocol/client";
import { tapTransport } from "../transport-tap";
import type { CallScope } from "./call-context";

export type RequestId = string | number;

/** The fields read here, on any JSON-RPC message. */
interface Message {
  readonly id?: RequestId | undefined;
  readonly method?: string | undefined;
  readonly params?: { readonly requestId?: RequestId | undefined } | undefined;
  readonly result?: unknown;
}

/** What the tap tells (the endpoint's `RelayRouter`). */
export interface CallAnswerListener {
  /** A request with `id` is being sent. */
  requestSent(id: RequestId): void;
  /** The request `id` was cancelled: no answer is due. */
  requestDropped(id: RequestId): void;
  /** The answer to `id` is read; `final` when it ends the request's work (not a task or a request for input). */
  answerRead(id: RequestId, final: boolean): void;
  /** The server's request `id` is read (its handler runs some promise jobs later). */
  requestRead(id: RequestId, method: string): void;
  /** The connection closes: no answer is due. */
  connectionClosing(): void;
}

export function watchCallAnswers(transport: Transport, listener: CallAnswerListener): Transport {
  return tapTransport(transport, {
    sending: (message) => {
      const { id, method, params } = message as Message;
      if (method === undefined) return;
      if (id !== undefined) listener.requestSent(id);
      else if (method === "notifications/cancelled" && params?.requestId !== undefined)
        listener.requestDropped(params.requestId);
    },
    inbound: (deliver) => (message, extra) => {
      const { id, method, result } = message as Message;
      if (id !== undefined) {
        if (method === undefined) listener.answerRead(id, isFinal(result));
        else listener.requestRead(id, method);
      }
      deliver(message, extra);
    },
    closing: () => listener.connectionClosing(),
  });
}

/**
 * Whether an answer ends its request's work: an error does; a task created
 * (2025 `task`), a task still running (`status`) or a 2026-07-28 result other
 * than `complete` (input required, a task) leaves the call going on.
 */
function isFinal(result: unknown): boolean {
  if (!isRecord(result)) return true;
  if (result["task"] !== undefined) return false;
  if (result["status"] === "working" || result["status"] === "input_required") return false;
  const type = result["resultType"];
  return type === undefined || type === "complete";
}

/** The requests of calls whose answers are due, by id, and each call's. */
export class DueAnswers {
  private readonly byId = new Map<RequestId, CallScope>();
  private readonly byScope = new Map<CallScope, Set<RequestId>>();

  add(id: RequestId, scope: CallScope): void {
    this.take(id);
    this.byId.set(id, scope);
    const ids = this.byScope.get(scope);
    if (ids) ids.add(id);
    else this.byScope.set(scope, new Set([id]));
  }

  /** The call whose request `id` was, no longer due; undefined when none was due. */
  take(id: RequestId): CallScope | undefined {
    const scope = this.byId.get(id);
    if (scope === undefined) return undefined;
    this.byId.delete(id);
    const ids = this.byScope.get(scope);
    ids?.delete(id);
    if (ids?.size === 0) this.byScope.delete(scope);
    return scope;
  }

  awaits(scope: CallScope): boolean {
    return this.byScope.has(scope);
  }

  /**
   * Forgets a call that ended: a request of it that was never answered (a
   * 2026-07-28 request aborted with its HTTP stream sends no cancellation)
   * must not keep the call, and its client's hooks, alive.
   */
  forget(scope: CallScope): void {
    for (const id of this.byScope.get(scope) ?? []) this.byId.delete(id);
    this.byScope.delete(scope);
  }

  clear(): void {
    this.byId.clear();
    this.byScope.clear();
  }
}

/**
 * How many questions read and not yet routed are remembered. A question's
 * handler runs a few promise jobs after it is read, so a handful are ever
 * waiting; a server asking what the client never declared is answered by the
 * SDK without a handler, and its entries are never taken: the bound keeps such
 * a server from growing this without end (the oldest is forgotten, and routed
 * by the calls in flight when its handler runs, as before the tap).
 */
export const QUESTIONS_READ_BOUND = 256;

/** The calls in flight as each question of the server was read, by the server's request id; bounded. */
export class QuestionsRead<T> {
  private readonly byId = new Map<RequestId, T>();

  note(id: RequestId, calls: T): void {
    this.byId.delete(id);
    this.byId.set(id, calls);
    if (this.byId.size > QUESTIONS_READ_BOUND) this.byId.delete(this.byId.keys().next().value!);
  }

  /** What was noted for `id` (forgotten from now), or undefined. */
  take(id: RequestId): T | undefined {
    const calls = this.byId.get(id);
    if (calls !== undefined) this.byId.delete(id);
    return calls;
  }

  get size(): number {
    return this.byId.size;
  }

  clear(): void {
    this.byId.clear();
  }
}
