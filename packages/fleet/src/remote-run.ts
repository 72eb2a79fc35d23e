/**
 * One call on one endpoint as a runner outcome: the caller's signal, progress,
 * peer and log channel go with it, the server's result comes back projected (its wire
 * form kept), and a fault becomes an `isError` outcome, so the runner never
 * rejects.
 */
import { isProtocolFault, type McpEndpoint, type RunOptions, type ToolCall, type ToolOutcome } from "@indus/contract";
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
    const result = await endpoint.invoke(serverName, call.input ?? {}, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.peer ? { peer: options.peer } : {}),
      ...(options.logs ? { logs: options.logs } : {}),
    });
    return { callId: call.id, ...projectResult(result) };
  } catch (error) {
    const text = isProtocolFault(error) ? `[${error.kind}] ${error.message}` : String(error);
    return failure(call.id, text);
  }
}
