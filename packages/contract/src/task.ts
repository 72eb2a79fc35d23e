/**
 * Tasks (`io.modelcontextprotocol/tasks`, SEP-2663, the 2026-07-28 era): a
 * server may answer a `tools/call` with a task (`resultType: "task"`), which
 * its client then follows with `tasks/get` (at the server's poll interval),
 * answers with `tasks/update` when the task asks for input, and ends with
 * `tasks/cancel`. The 2025-11-25 era had its own task vocabulary, which the
 * endpoint follows for a tool that requires it.
 */
import type { JsonObject } from "./json";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A call that became a task, as its caller sees it change (status and message). */
export interface TaskView {
  readonly server: string;
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
}

/**
 * What a call does when its server would answer with a task:
 * - `drive` (the default): declare the extension and follow the task to its
 *   end (poll, ask the call's relayTo what the task asks, `tasks/cancel` on
 *   abort); the call's result is the task's.
 * - `hand-back`: declare it and hand the task back as created
 *   (`RemoteCallResult.task`), for a caller that follows it itself (a
 *   gateway whose client declared the extension).
 * - `off`: do not declare it (a gateway whose client did not): the server
 *   runs the call to its end, or refuses it (-32021) when it only runs tasks.
 */
export type TaskMode = "drive" | "hand-back" | "off";

/** A task a server created for a call in `hand-back` mode: which server holds it, and its `CreateTaskResult` as sent. */
export interface CreatedTask {
  readonly kind: "task";
  readonly server: string;
  /** The server's `CreateTaskResult`, less `resultType` (its `taskId` is the server's own). */
  readonly wire: JsonObject;
}

/** The requests that follow a task, sent to the server that holds it. */
export const TASK_METHODS = ["tasks/get", "tasks/update", "tasks/cancel"] as const;
export type TaskMethod = (typeof TASK_METHODS)[number];

/** Whether `method` is one of the requests that follow a task. */
export function isTaskMethod(method: string): method is TaskMethod {
  return (TASK_METHODS as readonly string[]).includes(method);
}
