/**
 * What following a task needs in either era (the 2025-11-25 task-augmented
 * call in `tool-task`, the 2026-07-28 extension in `task-drive`): one stop
 * for every open request of the task (the caller's abort, the bound on the
 * whole task), a pause between polls that the stop (or a request settling)
 * cuts short, the count of the task's changes reported as progress, and a
 * best-effort `tasks/cancel`.
 */
import type { Client } from "@modelcontextprotocol/client";
import { CallerAborted, DeadlineExceeded, requestWithDeadline } from "../deadline";
import { AnyResultSchema } from "../wire";

/** How long `tasks/cancel` may take before the call fails without waiting for its answer. */
export const CANCEL_WAIT_MS = 5_000;

export class TaskWatch {
  /** Ends every open request of the task. */
  readonly stop = new AbortController();
  private readonly totalTimer: NodeJS.Timeout;
  private reported = "";
  private reports = 0;

  /** `totalMs`: the bound on the whole task; `signal`: the caller's abort. */
  constructor(
    totalMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.totalTimer = setTimeout(() => this.end(new DeadlineExceeded(totalMs, true)), totalMs);
    this.totalTimer.unref();
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** The task is over for this call: no more bound, no more caller abort. */
  done(): void {
    clearTimeout(this.totalTimer);
    this.signal?.removeEventListener("abort", this.onAbort);
  }

  end(reason: Error): void {
    if (!this.stop.signal.aborted) this.stop.abort(reason);
  }

  throwIfStopped(): void {
    if (this.stop.signal.aborted) throw this.stop.signal.reason;
  }

  /** Wait `ms`, or less when the task is stopped or `settling` settles. */
  pause(ms: number, settling?: Promise<unknown>): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.stop.signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stop.signal.addEventListener("abort", done, { once: true });
      settling?.then(done, done);
    });
  }

  /** The progress count when the task's status or message changed (so it only ever increases); else undefined. */
  changed(status: string, message: string | undefined): number | undefined {
    const key = `${status}\u0000${message ?? ""}`;
    if (key === this.reported) return undefined;
    this.reported = key;
    this.reports += 1;
    return this.reports;
  }

  private readonly onAbort = () => this.end(new CallerAborted(this.signal?.reason));
}

/** Best effort: tell the server to stop; its answer (or silence) never changes how the call ends. */
export async function cancelTask(
  client: Client,
  request: { method: string; params: Record<string, unknown> },
  timeoutMs: number,
): Promise<void> {
  await requestWithDeadline(client, request, AnyResultSchema, {
    timeoutMs: Math.min(timeoutMs, CANCEL_WAIT_MS),
  }).catch(() => undefined);
}
