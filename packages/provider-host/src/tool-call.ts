/**
 * One `tools/call` through the box: argument check, cancellation, progress
 * with the caller's own token, the caller as the call's peer (the mounted
 * server's requests during the call go to this client and no other), and
 * the result as the tool's server sent it when it came from one.
 */
import { randomUUID } from "node:crypto";
import type { ClientHostHooks, ToolBox, ToolDescriptor, ToolOutcome, ToolProgress } from "@indus/contract";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { CallToolRequest, CallToolResult, ProgressToken, ServerContext } from "@modelcontextprotocol/server";
import type { ArgumentValidator } from "./argument-validator";
import { CONNECTION_CLOSED, downstreamRpcError } from "./rpc-errors";
import { toCallToolResult, toolErrorResult } from "./tool-mapping";

/** What one call needs from the instance serving it. */
export interface CallScope {
  readonly box: ToolBox;
  readonly validator: ArgumentValidator | undefined;
  /** Running calls of the instance: each one's abort handle and its settling. */
  readonly calls: Map<AbortController, Promise<void>>;
  /** The client this call runs for, as hooks (only what it declared). */
  peerFor(ctx: ServerContext, signal: AbortSignal): ClientHostHooks;
}

export async function callTool(
  scope: CallScope,
  params: CallToolRequest["params"],
  ctx: ServerContext,
): Promise<CallToolResult> {
  const name = params.name;
  const descriptor = findDescriptor(scope.box, name);
  if (descriptor === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const input = params.arguments ?? {};
  // A republished tool is checked by its own server, against its own schema:
  // the gateway must not refuse what that server would accept.
  if (scope.validator !== undefined && descriptor.wire === undefined) {
    const check = scope.validator.check(descriptor, input);
    if (!check.ok) return toolErrorResult(check.message);
  }
  const callerSignal = ctx.mcpReq.signal;
  const controller = new AbortController();
  const abort = () => controller.abort(callerSignal.reason);
  if (callerSignal.aborted) abort();
  else callerSignal.addEventListener("abort", abort, { once: true });
  let settle!: () => void;
  scope.calls.set(controller, new Promise<void>((resolve) => (settle = resolve)));
  // Progress is flushed before the result (the transport writes in order, so
  // awaiting the latest send suffices). The SDK client (1.32 and 2.4) drops a
  // report that arrives in the same read as the result (typescript-sdk#2580).
  let lastProgress: Promise<void> | undefined;
  const onProgress = progressReporter(ctx.mcpReq._meta?.progressToken, (notification) => {
    lastProgress = ctx.mcpReq.notify(notification).catch(() => {});
  });
  try {
    const peer = scope.peerFor(ctx, controller.signal);
    const outcome = await runSafely(
      scope.box,
      { id: randomUUID(), name, input },
      { signal: controller.signal, peer, onProgress },
    );
    if (lastProgress !== undefined) await lastProgress;
    if (controller.signal.aborted && !callerSignal.aborted) {
      // Interrupted by the host, not by the client: say so, rather than leave
      // the client waiting for an answer that will never come.
      throw new ProtocolError(CONNECTION_CLOSED, `Call to '${name}' interrupted: the provider host is shutting down`);
    }
    return toCallToolResult(outcome);
  } finally {
    scope.calls.delete(controller);
    settle();
    callerSignal.removeEventListener("abort", abort);
  }
}

const descriptorIndex = new WeakMap<readonly ToolDescriptor[], Map<string, ToolDescriptor>>();

/** Looks a tool up by name, indexing each descriptor list the box hands out once. */
function findDescriptor(box: ToolBox, name: string): ToolDescriptor | undefined {
  const descriptors = box.descriptors();
  let index = descriptorIndex.get(descriptors);
  if (index === undefined) {
    index = new Map(descriptors.map((descriptor) => [descriptor.name, descriptor]));
    descriptorIndex.set(descriptors, index);
  }
  return index.get(name);
}

interface RunScope {
  readonly signal: AbortSignal;
  readonly peer: ClientHostHooks;
  readonly onProgress: ((progress: ToolProgress) => void) | undefined;
}

/**
 * The runner promises never to reject; a host must not trust that blindly.
 * A rejection carrying a JSON-RPC code (a mounted server's own error) is
 * answered with that code; any other becomes a tool error the model can read.
 */
async function runSafely(
  box: ToolBox,
  call: { id: string; name: string; input: unknown },
  { signal, peer, onProgress }: RunScope,
): Promise<ToolOutcome> {
  try {
    return await box.runner.run(call, onProgress === undefined ? { signal, peer } : { signal, peer, onProgress });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const downstream = downstreamRpcError(error);
    if (downstream !== undefined) throw new ProtocolError(downstream.code, message, downstream.data);
    return {
      callId: call.id,
      content: [{ type: "text", text: `Tool '${call.name}' failed: ${message}` }],
      isError: true,
    };
  }
}

type ProgressNotification = {
  method: "notifications/progress";
  params: { progressToken: ProgressToken; progress: number; total?: number; message?: string };
};

/**
 * The runner's progress as `notifications/progress` carrying the caller's own
 * token, or nothing when the caller asked for none. MCP requires progress to
 * increase, so a report that does not is dropped rather than forwarded.
 */
export function progressReporter(
  token: ProgressToken | undefined,
  send: (notification: ProgressNotification) => void,
): ((progress: ToolProgress) => void) | undefined {
  if (token === undefined) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  return (progress) => {
    if (!Number.isFinite(progress.progress) || progress.progress <= last) return;
    last = progress.progress;
    const params: ProgressNotification["params"] = { progressToken: token, progress: progress.progress };
    if (progress.total !== undefined) params.total = progress.total;
    if (progress.message !== undefined) params.message = progress.message;
    send({ method: "notifications/progress", params });
  };
}
