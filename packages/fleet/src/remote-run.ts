/**
 * One call on one endpoint as a runner outcome: the caller's signal, progress,
 * relayTo and log channel go with it, the server's result comes back projected (its wire
 * form kept), and a fault becomes an `isError` outcome, so the runner never
 * rejects (a server's JSON-RPC error kept beside it as `rpcError`).
 */
import {
  isProtocolFault,
  type McpEndpoint,
  type RawCall,
  type RawForward,
  type RunOptions,
  type ToolCall,
  type ToolOutcome,
} from "@indus/contract";
import { projectResult } from "./content-projection";

export function failure(callId: string, text: string): ToolOutcome {
  return { callId, content: [{ type: "text", text }], isError: true };
}

/** Runs `call` on `endpoint` under the server-side name `serverName`. */
export async function runOn(
  endpoint: McpEndpoint,
  serverName: string,
  call: ToolCall,
  options: RunOptions,
): Promise<ToolOutcome> {
  try {
    // A runner's options are invoke options as they stand (signal, progress, relayTo, logs): no copy per call.
    const result = await endpoint.invoke(serverName, call.input ?? {}, options);
    return { callId: call.id, ...projectResult(result) };
  } catch (error) {
    return faultOutcome(call.id, error);
  }
}

/** A failed call as a runner outcome (also a raw call's fault: see `forwardRawOn`). */
export function faultOutcome(callId: string, error: unknown): ToolOutcome {
  if (!isProtocolFault(error)) return failure(callId, String(error));
  const outcome = failure(callId, `[${error.kind}] ${error.message}`);
  // The server's own JSON-RPC error rides along, for a gateway to answer with.
  if (error.rpcCode === undefined) return outcome;
  const data = error.data === undefined ? {} : { data: error.data };
  return { ...outcome, rpcError: { code: error.rpcCode, message: error.message, ...data } };
}

/** A call taken raw on `endpoint` under the server-side name, its faults made outcomes as `runOn` makes them. */
export function forwardRawOn(endpoint: McpEndpoint, serverName: string, call: RawCall): RawForward | undefined {
  return endpoint.forwardRaw?.({
    name: serverName,
    arguments: call.arguments,
    ...(call.logLevel !== undefined && { logLevel: call.logLevel }),
    answer: (answer) =>
      call.answer(answer.kind === "fault" ? { kind: "outcome", outcome: faultOutcome("raw", answer.error) } : answer),
  });
}
