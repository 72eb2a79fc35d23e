/**
 * Carries a 2026-era `tools/call` answered with a task (`resultType:
 * "task"`, SEP-2663) past the SDK. The SDK's client (2.4) knows only the
 * `complete` and `input_required` result types and rejects any other as
 * unsupported, with no hook to take it (the extension's own client package
 * asks its host for a raw request path for this reason). This wrapper sits
 * between the transport and the client, like the tools/list sanitizer: it
 * notes the ids of outgoing `tools/call` requests and turns a task answer to
 * one of them into a JSON-RPC error with a reserved code whose data holds
 * the `CreateTaskResult` as sent, so the call rejects with it through the
 * SDK's own request path (deadline, abort, multi-round input all unchanged)
 * and `createdTaskOf` reads it back. Only while `active()` (the 2026 era).
 */
import { ProtocolError, type Transport } from "@modelcontextprotocol/client";
import { isRecord, type JsonObject } from "@indus/contract";
import { tapAnswers, type TappedMessage } from "./answer-tap";

/** Not a code any server sends: the error exists only between this wrapper and `createdTaskOf`. */
const TASK_CREATED = -32_990;
/** Where in that error's data the task rides. */
const CREATED_KEY = "indus/createdTask";

/** The task of a call that rejected because its server answered with one (see above), as sent less `resultType`. */
export function createdTaskOf(error: unknown): JsonObject | undefined {
  if (!(error instanceof ProtocolError) || error.code !== TASK_CREATED || !isRecord(error.data)) return undefined;
  const created = error.data[CREATED_KEY];
  return isRecord(created) ? (created as JsonObject) : undefined;
}

/** A `tools/call` answer as the error carrying its task, when it is a task. */
function reframe(answer: TappedMessage): TappedMessage {
  const result = answer.result;
  if (!isRecord(result) || result["resultType"] !== "task") return answer;
  const { resultType: _task, ...created } = result;
  return {
    jsonrpc: "2.0",
    id: answer.id,
    error: { code: TASK_CREATED, message: "the server answered with a task", data: { [CREATED_KEY]: created } },
  } as TappedMessage;
}

/** `transport` with task answers to `tools/call` turned into errors the endpoint recognises. */
export function carryTaskResults(transport: Transport, active: () => boolean): Transport {
  return tapAnswers(transport, "tools/call", active, reframe);
}
