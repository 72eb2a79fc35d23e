/**
 * Requests with our own deadlines. The SDK's per-request timeout is kept only
 * as a backstop: we need to tell a deadline apart from a server error (both
 * surface as an `McpError` in the SDK), reset the deadline on progress up to a
 * total bound, and have the SDK send `notifications/cancelled` when we give up.
 * Aborting the SDK request's signal does exactly that last part.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolProgress } from "@indus/contract";

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
  readonly totalMs?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
}

type RequestArgs = Parameters<Client["request"]>;

export async function requestWithDeadline<T>(
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: RequestArgs[1],
  options: DeadlineOptions,
): Promise<T> {
  const controller = new AbortController();
  const fire = (reason: Error) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  let idle = setTimeout(() => fire(new DeadlineExceeded(options.timeoutMs, false)), options.timeoutMs);
  const total =
    options.totalMs === undefined
      ? undefined
      : setTimeout(() => fire(new DeadlineExceeded(options.totalMs ?? 0, true)), options.totalMs);
  const onAbort = () => fire(new CallerAborted(options.signal?.reason));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const resetsOnProgress = options.totalMs !== undefined;
  try {
    return (await client.request(request as RequestArgs[0], schema, {
      signal: controller.signal,
      timeout: (options.totalMs ?? options.timeoutMs) + 5_000,
      onprogress: resetsOnProgress
        ? (progress) => {
            clearTimeout(idle);
            idle = setTimeout(() => fire(new DeadlineExceeded(options.timeoutMs, false)), options.timeoutMs);
            options.onProgress?.({
              progress: progress.progress,
              ...(progress.total === undefined ? {} : { total: progress.total }),
              ...(progress.message === undefined ? {} : { message: progress.message }),
            });
          }
        : undefined,
    })) as T;
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    if (controller.signal.aborted && (reason instanceof DeadlineExceeded || reason instanceof CallerAborted)) throw reason;
    throw error;
  } finally {
    clearTimeout(idle);
    if (total) clearTimeout(total);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
