/**
 * The `requestState` the gateway gives its 2026-07-28 client for a round it
 * passes through from a mounted 2026-era server: the request it belongs to
 * (method and name as the client sent them) and the server's own state, as
 * prefixed, versioned base64url JSON. Any process of the gateway turns the
 * client's retry into the server's with it, so nothing is kept between
 * rounds and replicas need not share anything.
 *
 * Not sealed: the server's part is the server's own (the revision requires a
 * server to check the state it gets back), and the gateway's part only names
 * the request, which the retry must repeat (checked here). A client that
 * forges one gets no further than calling that server directly would.
 */
import type { ServerQuestions } from "@indus/contract";
import { ProtocolError, ProtocolErrorCode, inputRequired } from "@modelcontextprotocol/server";
import type { InputRequests } from "@modelcontextprotocol/server";

/** Marks a passed-through state (an in-process run's state is a bare UUID). */
const PREFIX = "indus.passthrough.v1.";

interface Payload {
  /** The request, e.g. `tools/call my_tool` or `prompts/get my_prompt`. */
  readonly r: string;
  /** The server's own state, when it gave one. */
  readonly s?: string;
}

/** Whether `state` is one this gateway gave for a passed-through round (else: an in-process run's). */
export function isPassedState(state: string): boolean {
  return state.startsWith(PREFIX);
}

/** The state to give the client for `request`'s round, carrying the server's own `serverState`. */
export function passedState(request: string, serverState: string | undefined): string {
  const payload: Payload = serverState === undefined ? { r: request } : { r: request, s: serverState };
  return PREFIX + Buffer.from(JSON.stringify(payload)).toString("base64url");
}

/** A 2026-era server's questions for the client, as sent, with the state to retry `request` with. */
export function passedThrough(request: string, questions: ServerQuestions): ReturnType<typeof inputRequired> {
  const requestState = passedState(request, questions.requestState);
  const inputRequests = questions.inputRequests as unknown as InputRequests;
  // A round may carry only state (the server paces itself): the result must still have one of the two.
  return Object.keys(inputRequests).length === 0
    ? inputRequired({ requestState })
    : inputRequired({ inputRequests, requestState });
}

/**
 * The server's own state in `state`, for a retry of `request`. A state that
 * does not decode, or was given for another request, is refused -32602
 * saying which.
 */
export function serverStateOf(state: string, request: string): string | undefined {
  const payload = decode(state.slice(PREFIX.length));
  if (payload === undefined) {
    throw invalidState(
      "requestState does not decode (a passed-through round's state, altered or cut short): send it back exactly as the gateway gave it",
    );
  }
  if (payload.r !== request) {
    throw invalidState(
      `requestState was given for ${payload.r}, not for ${request}: retry the request it was given for`,
    );
  }
  return payload.s;
}

function decode(body: string): Payload | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { r, s } = value as { r?: unknown; s?: unknown };
  if (typeof r !== "string" || (s !== undefined && typeof s !== "string")) return undefined;
  return s === undefined ? { r } : { r, s };
}

function invalidState(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { reason: "invalid_request_state" });
}
