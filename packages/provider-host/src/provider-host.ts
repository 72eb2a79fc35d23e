/**
 * The provider host: makes a `ToolBox` an MCP server. Each `connect` builds a
 * fresh low-level SDK `Server` for that one transport, so no two clients ever
 * share protocol state (a shared server leaked responses across clients in a
 * past SDK advisory). The low-level `Server` is used on purpose: it serves the
 * box's raw JSON Schemas, where `McpServer`'s zod helpers would re-emit them.
 */
import { randomUUID } from "node:crypto";
import type { ToolBox, ToolDescriptor, ToolOutcome, ToolProgress } from "@indus/contract";
import { protocolFault } from "@indus/contract";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Implementation, ProgressToken, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { version } from "../package.json";
import { ArgumentValidator } from "./argument-validator";
import { registerCatalogHandlers } from "./catalog-handlers";
import { handleStrictly } from "./strict-handlers";
import { toCallToolResult, toMcpTool, toolErrorResult } from "./tool-mapping";

/** Who the host says it is in the `initialize` answer. */
export interface ProviderHostInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** The identity advertised when none is given. */
export const DEFAULT_HOST_INFO: ProviderHostInfo = Object.freeze({ name: "indus-provider-host", version });

export interface ProviderHostOptions {
  /** Sent to clients in `initialize` as usage guidance for the model. */
  readonly instructions?: string;
  /**
   * Check `tools/call` arguments against the tool's JSON Schema before the
   * box sees them (default true). Failures are `isError` results.
   */
  readonly validateArguments?: boolean;
}

/** One live client session of the host. Keep it for the session's lifetime. */
export interface RunningProviderHost {
  /** The SDK server bound to this session (an escape hatch, e.g. for logging). */
  readonly server: Server;
  /** Calls currently running in the box for this session. */
  readonly inFlight: number;
  /** True once the transport has closed. */
  readonly closed: boolean;
  /** Resolves when the session ends: the transport closed or `cancel()` ran. */
  waiting(): Promise<void>;
  /**
   * Ends the session: aborts its running calls (each still answered, with an
   * "interrupted" JSON-RPC error, when the transport can carry it) and closes
   * the transport.
   */
  cancel(): Promise<void>;
}

export interface ProviderHost {
  readonly info: ProviderHostInfo;
  readonly box: ToolBox;
  /**
   * Serves one client over `transport` with a server of its own. Resolves
   * once the transport is started and the session accepts the client's
   * `initialize`; a failure to start rejects with a `transport` fault.
   */
  connect(transport: Transport): Promise<RunningProviderHost>;
}

/** Debounced within a tick, so a burst of box changes is one notification. */
const LIST_CHANGED_METHODS = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
];

/** How long `cancel()` lets aborted calls answer before closing the transport. */
const CANCEL_FLUSH_MS = 2_000;

let sharedElicitationValidator: AjvJsonSchemaValidator | undefined;

export function createProviderHost(
  box: ToolBox,
  info: ProviderHostInfo = DEFAULT_HOST_INFO,
  options: ProviderHostOptions = {},
): ProviderHost {
  const validator = options.validateArguments === false ? undefined : new ArgumentValidator();
  const identity: Implementation = { name: info.name, version: info.version };
  if (info.title !== undefined) identity.title = info.title;
  const capabilities = capabilitiesOf(box);

  function buildSession(): { server: Server; calls: Map<AbortController, Promise<void>> } {
    // The SDK builds an Ajv instance per server unless given one; it only
    // validates elicitation answers, which the host never requests.
    sharedElicitationValidator ??= new AjvJsonSchemaValidator();
    const server = new Server(identity, {
      capabilities,
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      debouncedNotificationMethods: LIST_CHANGED_METHODS,
      jsonSchemaValidator: sharedElicitationValidator,
    });
    /** Running calls: each one's abort handle and its settling. */
    const calls = new Map<AbortController, Promise<void>>();
    handleStrictly(server, ListToolsRequestSchema, () => ({ tools: box.descriptors().map(toMcpTool) }));
    handleStrictly(server, CallToolRequestSchema, async (request, extra) => {
      const name = request.params.name;
      const descriptor = findDescriptor(box, name);
      if (descriptor === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      }
      const input = request.params.arguments ?? {};
      if (validator !== undefined) {
        const check = validator.check(descriptor, input);
        if (!check.ok) return toolErrorResult(check.message);
      }
      const controller = new AbortController();
      const abort = () => controller.abort(extra.signal.reason);
      if (extra.signal.aborted) abort();
      else extra.signal.addEventListener("abort", abort, { once: true });
      let settle!: () => void;
      calls.set(controller, new Promise<void>((resolve) => (settle = resolve)));
      // Progress is flushed before the result (the transport writes in order,
      // so awaiting the latest send suffices). Note: the SDK client (1.32) runs
      // notification handlers a microtask late, so a report that arrives in
      // the same read as the result is dropped there (typescript-sdk#2580).
      let lastProgress: Promise<void> | undefined;
      const onProgress = progressReporter(extra._meta?.progressToken, (notification) => {
        lastProgress = extra.sendNotification(notification).catch(() => {});
      });
      try {
        const outcome = await runSafely(box, { id: randomUUID(), name, input }, controller.signal, onProgress);
        if (lastProgress !== undefined) await lastProgress;
        if (controller.signal.aborted && !extra.signal.aborted) {
          // Interrupted by the host, not by the client: say so, rather than
          // leave the client waiting for an answer that will never come.
          throw new McpError(
            ErrorCode.ConnectionClosed,
            `Call to '${name}' interrupted: the provider host is shutting down`,
          );
        }
        return toCallToolResult(outcome);
      } finally {
        calls.delete(controller);
        settle();
        extra.signal.removeEventListener("abort", abort);
      }
    });
    if (box.catalog !== undefined) registerCatalogHandlers(server, box.catalog);
    return { server, calls };
  }

  async function connect(transport: Transport): Promise<RunningProviderHost> {
    const { server, calls } = buildSession();
    let closed = false;
    let resolveEnded!: () => void;
    const ended = new Promise<void>((resolve) => {
      resolveEnded = resolve;
    });
    const unsubscribers: Array<() => void> = [];
    const onClose = () => {
      if (closed) return;
      closed = true;
      for (const controller of calls.keys())
        controller.abort(protocolFault("not-connected", "the client session ended"));
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
      resolveEnded();
    };
    server.onclose = onClose;
    // Transport-level noise (a client's malformed frame, a dropped stream) is
    // answered by the transport; it must never surface as an unhandled error.
    server.onerror = () => {};

    const notify = (send: () => Promise<void>) => {
      if (closed) return;
      send().catch(() => {});
    };
    if (box.onDescriptorsChanged !== undefined) {
      unsubscribers.push(box.onDescriptorsChanged(() => notify(() => server.sendToolListChanged())));
    }
    const catalog = box.catalog;
    if (catalog?.onChanged !== undefined) {
      unsubscribers.push(
        catalog.onChanged((change) =>
          notify(() => (change === "resources" ? server.sendResourceListChanged() : server.sendPromptListChanged())),
        ),
      );
    }

    try {
      await server.connect(transport);
    } catch (cause) {
      onClose();
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw protocolFault("transport", `provider host failed to start: ${reason}`, cause);
    }

    let cancelling: Promise<void> | undefined;
    return {
      server,
      get inFlight() {
        return calls.size;
      },
      get closed() {
        return closed;
      },
      waiting: () => ended,
      cancel() {
        cancelling ??= (async () => {
          if (closed) return;
          // Abort running calls and give them a moment to answer (with an
          // "interrupted" error) before the transport goes away.
          const settling = [...calls.values()];
          for (const controller of calls.keys()) {
            controller.abort(protocolFault("not-connected", "the provider host was cancelled"));
          }
          if (settling.length > 0) {
            await Promise.race([Promise.all(settling), delay(CANCEL_FLUSH_MS)]);
            // A settled handler's answer reaches the transport through a few
            // promise hops inside the SDK; let those run before closing.
            await new Promise((resolve) => setImmediate(resolve));
          }
          try {
            await server.close();
          } finally {
            onClose();
          }
        })();
        return cancelling;
      },
    };
  }

  return { info, box, connect };
}

function capabilitiesOf(box: ToolBox): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  const catalog = box.catalog;
  if (catalog !== undefined) {
    const listChanged = catalog.onChanged !== undefined;
    capabilities.resources = { listChanged };
    capabilities.prompts = { listChanged };
  }
  return capabilities;
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

/** The runner promises never to reject; a host must not trust that blindly. */
async function runSafely(
  box: ToolBox,
  call: { id: string; name: string; input: unknown },
  signal: AbortSignal,
  onProgress: ((progress: ToolProgress) => void) | undefined,
): Promise<ToolOutcome> {
  try {
    return await box.runner.run(call, onProgress === undefined ? { signal } : { signal, onProgress });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
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
function progressReporter(
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}
