/**
 * One 2026-07-28 `tools/call`, with the Tasks extension (SEP-2663): the call
 * declares the extension unless its caller said `off`, and a server that
 * answers with a task either has it followed here to its result (`drive`,
 * see `task-drive.ts`) or handed back as created (`hand-back`: a gateway's
 * client follows it). A call in rounds (`InputRound`) gets an
 * `input_required` result back as it is; its last round may create a task too.
 */
import type { Client } from "@modelcontextprotocol/client";
import type { CreatedTask, InputRound, InvokeOptions, JsonObject, RemoteCallResult } from "@indus/contract";
import { requestWithDeadline, type DeadlineOptions } from "../deadline";
import { readRoundResult, withRound } from "../relay/input-handback";
import { createdTaskOf } from "./task-results";
import { driveTask, TaskUnusable, type TaskDriveOptions, type TaskRequest } from "./task-drive";
import { AnyResultSchema, readCallResult } from "../wire";

type Request = { method: string; params: Record<string, unknown> };

export interface ModernCallContext {
  readonly client: Client;
  readonly server: string;
  /** The request with this call's `_meta` (capabilities, log level); `tasks`: declaring the extension. */
  readonly frame: <R extends Request>(request: R, tasks: boolean) => R;
  /** Asks one question of a task through the host hooks (see `answerQuestion`). */
  readonly answer: TaskDriveOptions["answer"];
}

export function callModern(
  context: ModernCallContext,
  request: Request,
  deadline: DeadlineOptions & { readonly totalMs: number },
  options: InvokeOptions,
): Promise<RemoteCallResult> {
  const mode = options.tasks ?? "drive";
  const round: InputRound | undefined = options.inputRound;
  const sent = context.frame(round === undefined ? request : withRound(request, round), mode !== "off");
  const asked = requestWithDeadline<unknown>(context.client, sent, AnyResultSchema, {
    ...deadline,
    ...(round !== undefined && { allowInputRequired: true }),
  });
  return asked.then(round === undefined ? readCallResult : readRoundResult, (error: unknown) => {
    const created = createdTaskOf(error);
    if (created === undefined) throw error;
    if (mode === "off")
      throw new TaskUnusable("the server answered with a task, though the call did not declare tasks");
    if (mode === "hand-back") return handedBack(context.server, created);
    const drive: TaskDriveOptions = {
      server: context.server,
      timeoutMs: deadline.timeoutMs,
      totalMs: deadline.totalMs,
      signal: options.signal,
      onProgress: options.onProgress,
      onTask: options.onTask,
      frame: (task: TaskRequest) => context.frame(task, true),
      answer: context.answer,
    };
    return driveTask(context.client, created, drive).then(readCallResult);
  });
}

/** A created task for the caller to follow; `content` says so for a model. */
function handedBack(server: string, wire: JsonObject): RemoteCallResult {
  const task: CreatedTask = { kind: "task", server, wire };
  const id = typeof wire["taskId"] === "string" ? wire["taskId"] : "?";
  const text = `the server runs this call as task ${id} (the caller follows it)`;
  return { content: [{ type: "text", text }], isError: false, task };
}
