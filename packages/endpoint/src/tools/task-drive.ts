/**
 * A 2026-07-28 tool call its server answered with a task (SEP-2663),
 * followed to its end for a caller that wants the result (`TaskMode`
 * `drive`): `tasks/get` at the server's `pollIntervalMs` until the task is
 * terminal; an `input_required` task's questions (`inputRequests`, each an
 * embedded `elicitation/create`, `sampling/createMessage` or `roots/list`)
 * are asked through the same host hooks as the server's own requests, once
 * per key, and answered with `tasks/update`; a completed task's `result` is
 * the call's, a failed one's JSON-RPC `error` fails it as that error.
 *
 * - Deadlines: each request has the call's deadline, the whole task the
 *   call's total bound; a new status or message is progress and `onTask`.
 * - The caller's abort or the total bound ends the open requests, sends
 *   `tasks/cancel` (awaited briefly) and fails the call as any cancelled or
 *   timed-out call fails. So does a question no client here can answer.
 * - What the server sends is checked: a task that is not the one created,
 *   an unknown status, a question of an unknown kind fail the call, naming it.
 */
import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import { isRecord, type JsonObject, type TaskStatus, type TaskView, type ToolProgress } from "@indus/contract";
import type { QuestionMethod } from "../relay/client-host";
import { requestWithDeadline } from "../deadline";
import { TaskCancelled, pollDelayOf } from "./tool-task";
import { TaskWatch, cancelTask } from "./task-watch";
import { AnyResultSchema } from "../wire";

const STATUSES: readonly string[] = ["working", "input_required", "completed", "failed", "cancelled"];
const QUESTIONS: readonly string[] = ["elicitation/create", "sampling/createMessage", "roots/list"];

export interface TaskDriveOptions {
  readonly server: string;
  /** Deadline of each request of the task. */
  readonly timeoutMs: number;
  /** Bound on the whole task, from its creation to its end. */
  readonly totalMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
  readonly onTask?: ((task: TaskView) => void) | undefined;
  /** A task request as this call sends it (its `_meta`: the extension declared). */
  readonly frame: (request: TaskRequest) => TaskRequest;
  /** Asks one question of the task; resolves with the answer as the wire has it. */
  readonly answer: (
    method: QuestionMethod,
    params: JsonObject,
    signal: AbortSignal,
    key: string,
  ) => Promise<JsonObject>;
}

export interface TaskRequest {
  readonly method: "tasks/get" | "tasks/update" | "tasks/cancel";
  readonly params: Record<string, unknown>;
}

/** One state of the task as `tasks/get` (or the creating call) sent it, checked. */
interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly pollIntervalMs?: unknown;
  readonly raw: JsonObject;
}

/** A task the server sent that this client cannot follow: the call fails naming what was wrong. */
export class TaskUnusable extends Error {
  override readonly name = "TaskUnusable";
}

/** Follow the task `created` (a `CreateTaskResult` less `resultType`) to its result, as the server sent it. */
export function driveTask(client: Client, created: JsonObject, options: TaskDriveOptions): Promise<JsonObject> {
  return new TaskDrive(client, options).run(created);
}

class TaskDrive {
  /** The caller's abort and the total bound end every open request of the task. */
  private readonly watch: TaskWatch;
  /** Question keys already asked: each is asked once over the task's life (the spec keeps keys unique). */
  private readonly asked = new Set<string>();
  /** Set once the server ended the task: nothing is left to cancel. */
  private ended = false;

  constructor(
    private readonly client: Client,
    private readonly options: TaskDriveOptions,
  ) {
    this.watch = new TaskWatch(options.totalMs, options.signal);
  }

  async run(created: JsonObject): Promise<JsonObject> {
    const first = readTask(created, undefined);
    try {
      return await this.follow(first);
    } catch (error) {
      const stop = this.watch.stop.signal;
      const reason: unknown = stop.aborted ? stop.reason : error;
      // Withdraws any question still shown, then tells the server, unless it ended the task itself.
      this.watch.end(reason instanceof Error ? reason : new Error(String(reason)));
      if (!this.ended) await this.cancel(first.taskId);
      throw reason;
    } finally {
      this.watch.done();
    }
  }

  private async follow(first: TaskState): Promise<JsonObject> {
    let task = first;
    for (;;) {
      this.report(task);
      this.ended = task.status === "completed" || task.status === "failed" || task.status === "cancelled";
      switch (task.status) {
        case "completed":
          return resultOf(task);
        case "failed":
          throw errorOf(task);
        case "cancelled":
          throw new TaskCancelled(task.taskId, task.statusMessage);
        case "input_required":
          await this.answerAll(task);
          break;
        case "working":
          await this.watch.pause(pollDelayOf(task.pollIntervalMs));
      }
      this.watch.throwIfStopped();
      task = readTask(await this.send({ method: "tasks/get", params: { taskId: task.taskId } }), task.taskId);
    }
  }

  /** Ask every question not asked yet, then send the answers in one `tasks/update`. */
  private async answerAll(task: TaskState): Promise<void> {
    const fresh = Object.entries(questionsOf(task)).filter(([key]) => !this.asked.has(key));
    if (fresh.length === 0) return this.watch.pause(pollDelayOf(task.pollIntervalMs));
    for (const [key] of fresh) this.asked.add(key);
    const answers = await Promise.all(
      fresh.map(
        async ([key, question]) =>
          [key, await this.options.answer(question.method, question.params, this.watch.stop.signal, key)] as const,
      ),
    );
    this.watch.throwIfStopped();
    await this.send({
      method: "tasks/update",
      params: { taskId: task.taskId, inputResponses: Object.fromEntries(answers) },
    });
  }

  private send(request: TaskRequest, timeoutMs = this.options.timeoutMs): Promise<unknown> {
    this.watch.throwIfStopped();
    return requestWithDeadline(this.client, this.options.frame(request), AnyResultSchema, {
      timeoutMs,
      signal: this.watch.stop.signal,
    });
  }

  private cancel(taskId: string): Promise<void> {
    return cancelTask(
      this.client,
      this.options.frame({ method: "tasks/cancel", params: { taskId } }),
      this.options.timeoutMs,
    );
  }

  /** A new status or message is progress (counted, so it only ever increases) and a task view. */
  private report(task: TaskState): void {
    const progress = this.watch.changed(task.status, task.statusMessage);
    if (progress === undefined) return;
    const message = task.statusMessage ?? task.status;
    // The task first, so a caller showing both knows the progress that follows is the task's.
    this.options.onTask?.({
      server: this.options.server,
      taskId: task.taskId,
      status: task.status,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    });
    this.options.onProgress?.({ progress, message });
  }
}

/** `raw` as a task state, checked (and, after creation, checked to be the same task). */
function readTask(raw: unknown, taskId: string | undefined): TaskState {
  if (!isRecord(raw)) throw new TaskUnusable("the task is not an object");
  const id = raw["taskId"];
  if (typeof id !== "string" || id.length === 0) throw new TaskUnusable("the task has no taskId");
  if (taskId !== undefined && id !== taskId) {
    throw new TaskUnusable(`tasks/get for task ${taskId} answered with task ${id.slice(0, 200)}`);
  }
  const status = raw["status"];
  if (typeof status !== "string" || !STATUSES.includes(status)) {
    throw new TaskUnusable(`task ${id} has an unknown status ${JSON.stringify(status)?.slice(0, 100)}`);
  }
  const message = raw["statusMessage"];
  return {
    taskId: id,
    status: status as TaskStatus,
    statusMessage: typeof message === "string" ? message : undefined,
    pollIntervalMs: raw["pollIntervalMs"],
    raw: raw as JsonObject,
  };
}

/** The questions of an `input_required` task, by the server's keys (none when it sent none); one of an unknown kind is refused. */
function questionsOf(task: TaskState): Record<string, { method: QuestionMethod; params: JsonObject }> {
  const requests = task.raw["inputRequests"];
  // A CreateTaskResult never carries the questions (tasks/get does): none yet, poll for them.
  if (!isRecord(requests)) return {};
  const questions: Record<string, { method: QuestionMethod; params: JsonObject }> = {};
  for (const [key, request] of Object.entries(requests)) {
    const method = isRecord(request) ? request["method"] : undefined;
    if (typeof method !== "string" || !QUESTIONS.includes(method)) {
      throw new TaskUnusable(
        `task ${task.taskId} asks ${JSON.stringify(method)?.slice(0, 100)}, which no client here answers`,
      );
    }
    const params = isRecord(request) && isRecord(request["params"]) ? request["params"] : {};
    questions[key] = { method: method as QuestionMethod, params };
  }
  return questions;
}

function resultOf(task: TaskState): JsonObject {
  const result = task.raw["result"];
  if (!isRecord(result)) throw new TaskUnusable(`task ${task.taskId} completed without a result`);
  return result;
}

/** A failed task's JSON-RPC error, as the error the call fails with (as if the server had answered the call with it). */
function errorOf(task: TaskState): Error {
  const error = task.raw["error"];
  if (!isRecord(error) || typeof error["code"] !== "number" || typeof error["message"] !== "string") {
    return new TaskUnusable(`task ${task.taskId} failed${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
  }
  return new ProtocolError(error["code"], error["message"], error["data"]);
}
