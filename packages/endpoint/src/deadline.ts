/**
 * Requests with our own deadlines. The SDK's per-request timeout is kept only
 * as a backstop: we need to tell a deadline apart from a server error (both
 * surface as an `McpError` in the SDK), reset the deadline on progress up to a
 * total bound, and have the SDK send `notifications/cancelled` when we give up.
 * Aborting the signal the SDK request was given does exactly that last part.
 */
import type { Client, StandardSchemaV1 } from "@modelcontextprotocol/client";
import type { ToolProgress } from "@indus/contract";
import type { ClientWaits } from "./relay/client-waits";

/** Thrown when a request outlives its deadline. */
export class DeadlineExceeded extends Error {
  override readonly name = "DeadlineExceeded";
  constructor(
    readonly ms: number,
    readonly total: boolean,
  ) {
    super(total ? `exceeded its total bound of ${ms} ms` : `timed out after ${ms} ms`);
  }
}

/** Thrown when the caller's signal aborts a request. */
export class CallerAborted extends Error {
  override readonly name = "CallerAborted";
  constructor(readonly reason: unknown) {
    super(`cancelled by the caller${reason instanceof Error ? `: ${reason.message}` : ""}`);
  }
}

export interface DeadlineOptions {
  /** Deadline; progress resets it when `totalMs` is given. */
  readonly timeoutMs: number;
  /** Bound on the whole request however much progress arrives. */
  readonly totalMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** Extra HTTP headers for this request (Streamable HTTP only). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Hand a 2026-era `input_required` result back as it is (the SDK's manual mode) instead of answering it. */
  readonly allowInputRequired?: boolean | undefined;
  /** The server's questions to its client: time waiting on them is not idle time. */
  readonly clientWaits?: ClientWaits | undefined;
}

/**
 * The part of `AbortSignal` that the SDK's `Protocol.request()` uses: `aborted`,
 * `reason`, `throwIfAborted()` and one `abort` listener (on which it sends
 * `notifications/cancelled` and rejects). Every request needs one, and a real
 * `AbortController` (EventTarget machinery) cost more per call than the rest of
 * our request path together; this plain object does the same job. The deadline
 * and abort tests pin the behaviour against the SDK version in use.
 */
class CancelHandle {
  aborted = false;
  reason: unknown = undefined;
  private listener: (() => void) | undefined;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(_type: "abort", listener: () => void): void {
    this.listener = listener;
  }

  removeEventListener(): void {
    this.listener = undefined;
  }

  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

export async function requestWithDeadline<T>(
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: StandardSchemaV1,
  options: DeadlineOptions,
): Promise<T> {
  const handle = new CancelHandle();
  const started = Date.now();
  const resetsOnProgress = options.totalMs !== undefined;
  const totalMs = options.totalMs ?? options.timeoutMs;
  let lastActivity = started;
  // One timer per request: progress only records the time, and the timer, when
  // it fires, re-arms itself for whatever is left (cheaper than re-arming per
  // progress notification).
  const check = () => {
    const now = Date.now();
    if (options.clientWaits) lastActivity = Math.max(lastActivity, options.clientWaits.lastWaitAt(now));
    const idleLeft = lastActivity + options.timeoutMs - now;
    const totalLeft = started + totalMs - now;
    if (totalLeft <= 0 && idleLeft > 0) return handle.abort(new DeadlineExceeded(totalMs, true));
    if (idleLeft <= 0) return handle.abort(new DeadlineExceeded(options.timeoutMs, false));
    timer = setTimeout(check, Math.min(idleLeft, totalLeft));
  };
  let timer = setTimeout(check, Math.min(options.timeoutMs, totalMs));
  const signal = options.signal;
  const onAbort = signal ? () => handle.abort(new CallerAborted(signal.reason)) : undefined;
  if (signal && onAbort) {
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  try {
    return (await client.request(request, schema, {
      signal: handle as unknown as AbortSignal,
      // A backstop only; ours fires first.
      timeout: totalMs + 5_000,
      ...(options.headers && { headers: options.headers }),
      ...(options.allowInputRequired === true && { allowInputRequired: true }),
      ...(resetsOnProgress && {
        onprogress: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => {
          lastActivity = Date.now();
          options.onProgress?.({
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          });
        },
      }),
    })) as T;
  } catch (error) {
    const reason = handle.reason;
    if (handle.aborted && (reason instanceof DeadlineExceeded || reason instanceof CallerAborted)) throw reason;
    throw error;
  } finally {
    clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener("abort", onAbort);
  }
}
