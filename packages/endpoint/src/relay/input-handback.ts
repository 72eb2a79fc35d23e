/**
 * A request whose caller answers a 2026-07-28 server's questions itself (see
 * `InputRound` in the contract): sent with the SDK's per-request manual mode
 * (`allowInputRequired`), so an `input_required` result comes back as it is
 * instead of being fulfilled through the client's handlers; a retry carries
 * the client's `inputResponses` and the server's `requestState` as given.
 * Nothing of the request is kept here between rounds.
 */
import { protocolFault, serverQuestionsOf } from "@indus/contract";
import type { InputRound, ProtocolFault, RemoteCallResult } from "@indus/contract";
import { ProtocolErrorCode } from "@modelcontextprotocol/client";
import { readCallResult } from "../wire";

/** `request` as the round sends it: a retry with the answers and the server's state. */
export function withRound<R extends { params: Record<string, unknown> }>(request: R, round: InputRound): R {
  if (round.kind === "hand-back") return request;
  const params: Record<string, unknown> = { ...request.params, inputResponses: round.inputResponses };
  if (round.requestState !== undefined) params["requestState"] = round.requestState;
  return { ...request, params };
}

/** A `tools/call` result of a round: the server's questions, or its result as usual. */
export function readRoundResult(result: unknown): RemoteCallResult {
  const questions = serverQuestionsOf(result);
  if (questions === undefined) return readCallResult(result);
  const asked = Object.keys(questions.inputRequests).join(", ");
  const text = `the server asks for input the caller answers (input_required: ${asked === "" ? "no questions" : asked})`;
  return { content: [{ type: "text", text }], isError: true, questions };
}

/**
 * A retry of a round whose server now speaks the 2025 era (it restarted as
 * another version): the state it gave belongs to a revision it no longer
 * speaks, so the caller's retry is refused as the server would (-32602).
 */
export function retryOnLegacy(server: string): ProtocolFault {
  return protocolFault(
    "protocol",
    `server "${server}" no longer speaks the 2026-07-28 revision, so the requestState it gave cannot be resumed; call again`,
    undefined,
    { server, rpcCode: ProtocolErrorCode.InvalidParams },
  );
}
