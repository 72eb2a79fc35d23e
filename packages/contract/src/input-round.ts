/**
 * A 2026-07-28 server asks its caller for input (elicitation, sampling,
 * roots) by answering a request `input_required`: the questions, and an
 * opaque `requestState`; the caller answers and sends the request again with
 * `inputResponses` and that state, as a new request. By default the endpoint
 * answers those rounds itself through the call's `relayTo`. A caller that
 * answers them on its own (a gateway handing them to its own 2026-era client,
 * so nothing of the call waits in its process between rounds) says so per
 * request with an `InputRound`, and gets the questions back instead.
 */
import { isRecord, type JsonObject } from "./json";

/**
 * Hand the server's questions back rather than answer them (`hand-back`: a
 * first request), or this request answers the last round's (`retry`): the
 * client's `inputResponses` and the `requestState` the server gave, as given.
 * Only a 2026-07-28 server can be retried; a 2025-era one asks through the
 * call's `relayTo` whatever the round says.
 */
export type InputRound =
  | { readonly kind: "hand-back" }
  | {
      readonly kind: "retry";
      readonly inputResponses: JsonObject;
      readonly requestState?: string;
    };

/** A server's questions for the caller, handed back because the call asked for them (`InputRound`). */
export interface ServerQuestions {
  readonly kind: "input-required";
  /** The server's `inputRequests` as it sent them, by its own keys (embedded `elicitation/create`, ...). */
  readonly inputRequests: JsonObject;
  /** The server's own state for the retry, when it gave one: opaque, passed back byte for byte. */
  readonly requestState?: string;
}

/**
 * The questions of a 2026-07-28 `input_required` result (`resultType`), as a
 * server sent them; undefined for any other result. The one reading of that
 * wire shape for the client that gets it and the gateway that passes it on.
 */
export function serverQuestionsOf(result: unknown): ServerQuestions | undefined {
  if (!isRecord(result) || result["resultType"] !== "input_required") return undefined;
  const sent = result["inputRequests"];
  const inputRequests = (isRecord(sent) ? sent : {}) as JsonObject;
  const requestState = result["requestState"];
  return typeof requestState === "string"
    ? { kind: "input-required", inputRequests, requestState }
    : { kind: "input-required", inputRequests };
}
