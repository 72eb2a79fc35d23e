/**
 * A tool call run as a task (MCP 2025-11-25, experimental), behind `invoke`:
 * a tool that says `execution.taskSupport: "required"` on a server that
 * offers `tasks.requests.tools.call` refuses a plain call, so it is sent
 * task-augmented (`params.task`), and the task is then polled with
 * `tasks/get` (at the server's `pollInterval`) until it ends; its result
 * (`tasks/result`) is the call's result, as the server sent it.
 *
 * - `input_required`: the server holds its questions (elicitation,
 *   sampling) until the client asks for the result, so `tasks/result` is
 *   sent then and kept open while polling goes on; the questions arrive as
 *   ordinary server requests and are answered through the host hooks (relayTo
 *   routing counts this call as in flight), and the open `tasks/result`
 *   answers once the task ends.
 * - Deadlines: each request has the call's deadline; the whole task has the
 *   call's total bound (a task that keeps answering polls is alive however
 *   long it works, which is what tasks are for). A status or status message
 *   that changes is reported as progress.
 * - The caller's abort or the total bound ends the open requests, sends
 *   `tasks/cancel` (awaited briefly, so the server has it before `invoke`
 *   settles) and fails the call as any cancelled or timed-out call fails.
 *
 * The v2 SDK has no tasks runtime any more; the 2025-11-25 wire schemas it
 * still exports (`specTypeSchemas`, deprecated vocabulary) check the replies.
 */
import { isSpecType, specTypeSchemas, type Client, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import type { ToolProgress } from "@indus/contract";
import { requestWithDeadline } from "../deadline";
import { AnyResultSchema } from "../wire";
import { TaskWatch, cancelTask } from "./task-watch";

/** Used when the server suggests no poll interval (the v1 SDK client's default). */
const DEFAULT_POLL_MS = 1_000;
/** A hostile or careless `pollInterval` neither spins nor stalls the call. */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly pollInterval?: number | undefined;
}

export interface TaskCallOptions {
  /** Deadline of each request of the task. */
  readonly timeoutMs: number;
  /** Bound on the whole task, from the first request to the result. */
  readonly totalMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
}

/** The server ended the task as `cancelled` (not the caller: that is `CallerAborted`). */
export class TaskCancelled extends Error {
  override readonly name = "TaskCancelled";
  constructor(
    readonly taskId: string,
    readonly statusMessage: string | undefined,
  ) {
    super(`the server cancelled task ${taskId}${statusMessage ? `: ${statusMessage}` : ""}`);
  }
}

/** Whether `capabilities` (the server's) accept task-augmented `tools/call`. */
export function offersToolTasks(capabilities: unknown): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  return tasks?.requests?.tools?.call !== undefined;
}

/** Whether a listed tool (raw, as the server sent it) must be called as a task. */
export function requiresTask(tool: unknown): boolean {
  const execution = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution;
  return execution?.taskSupport === "required";
}

/**
 * Run `tools/call` `request` as a task on `client` and return the result of
 * `tasks/result` as sent. A server that answers the call directly instead
 * (no task created) has its result returned as is.
 */
export function callAsTask(
  client: Client,
  request: { method: string; params: Record<string, unknown> },
  options: TaskCallOptions,
): Promise<unknown> {
  return new TaskRun(client, options).run(request);
}

class TaskRun {
  private readonly started = Date.now();
  /** The caller's abort and the total bound end every open request of the task. */
  private readonly watch: TaskWatch;

  constructor(
    private readonly client: Client,
    private readonly options: TaskCallOptions,
  ) {
    this.watch = new TaskWatch(options.totalMs, options.signal);
  }

  async run(request: { method: string; params: Record<string, unknown> }): Promise<unknown> {
    let task: TaskState | undefined;
    try {
      const created = await this.send({
        ...request,
        params: { ...request.params, task: { ttl: this.options.totalMs } },
      });
      if (!isSpecType.CreateTaskResult(created)) return created;
      task = created.task;
      return await this.follow(task, (latest) => (task = latest));
    } catch (error) {
      const stop = this.watch.stop.signal;
      if (!stop.aborted) throw error;
      if (task && !isTerminal(task.status)) await this.cancel(task.taskId);
      throw stop.reason;
    } finally {
      this.watch.done();
    }
  }

  /** Poll until the task ends; its result once it has one. */
  private async follow(first: TaskState, seen: (task: TaskState) => void): Promise<unknown> {
    let task = first;
    let result: Promise<unknown> | undefined;
    let settled = false;
    for (;;) {
      this.report(task);
      if (task.status === "cancelled") throw new TaskCancelled(task.taskId, task.statusMessage);
      if (isTerminal(task.status)) return result ?? this.fetchResult(task.taskId);
      if (task.status === "input_required" && !result) {
        result = this.fetchResult(task.taskId);
        const done = () => (settled = true);
        result.then(done, done);
      }
      await this.watch.pause(pollDelay(task), result);
      if (settled) return await result;
      this.watch.throwIfStopped();
      task = await this.send<TaskState>(
        { method: "tasks/get", params: { taskId: task.taskId } },
        specTypeSchemas.GetTaskResult,
      );
      seen(task);
    }
  }

  /**
   * `tasks/result`: blocks on the server until the task ends, delivering the
   * questions it holds meanwhile, so its deadline is what is left of the
   * total bound, not the per-request one.
   */
  private fetchResult(taskId: string): Promise<unknown> {
    const left = Math.max(1, this.options.totalMs - (Date.now() - this.started));
    return this.send({ method: "tasks/result", params: { taskId } }, AnyResultSchema, left);
  }

  private send<T = unknown>(
    request: { method: string; params: Record<string, unknown> },
    schema: StandardSchemaV1 = AnyResultSchema,
    timeoutMs = this.options.timeoutMs,
  ): Promise<T> {
    this.watch.throwIfStopped();
    return requestWithDeadline<T>(this.client, request, schema, { timeoutMs, signal: this.watch.stop.signal });
  }

  private cancel(taskId: string): Promise<void> {
    return cancelTask(this.client, { method: "tasks/cancel", params: { taskId } }, this.options.timeoutMs);
  }

  /** A new status or status message is progress. */
  private report(task: TaskState): void {
    const progress = this.watch.changed(task.status, task.statusMessage);
    if (progress === undefined) return;
    this.options.onProgress?.({
      progress,
      ...(task.statusMessage === undefined ? {} : { message: task.statusMessage }),
    });
  }
}

function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

function pollDelay(task: TaskState): number {
  return pollDelayOf(task.pollInterval);
}

/** How long to wait before the next poll, from the interval a server suggested (either era's tasks). */
export function pollDelayOf(asked: unknown): number {
  if (typeof asked !== "number" || !Number.isFinite(asked)) return DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked));
}
