/**
 * One SDK `Server` serving a box: the unit every serving entry is built from.
 * `connect` binds one to a transport for a session, `serveStdio` pins one per
 * connection, and the HTTP host builds one per modern request. Each instance
 * keeps its own running calls, so no two clients ever share protocol state
 * (a shared server leaked responses across clients in a past SDK advisory).
 * The low-level `Server` is used on purpose: it serves the box's raw JSON
 * Schemas, where `McpServer`'s schema helpers would re-emit them.
 */
import { randomUUID } from "node:crypto";
import type { ToolBox, ToolDescriptor, ToolOutcome, ToolProgress } from "@indus/contract";
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type {
  CacheHint,
  CallToolRequest,
  Implementation,
  ProgressToken,
  ServerCapabilities,
  ServerContext,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { ArgumentValidator } from "./argument-validator";
import { registerCatalogHandlers } from "./catalog-handlers";
import { CONNECTION_CLOSED } from "./rpc-errors";
import { CHECKED_BY_SERVER, handleStrictly, PAGINATED_PARAMS } from "./strict-handlers";
import { toCallToolResult, toMcpTool, toolErrorResult } from "./tool-mapping";

/** Who the host says it is in the `initialize` and `server/discover` answers. */
export interface ProviderHostInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export interface ProviderHostOptions {
  /** Sent to clients in `initialize` as usage guidance for the model. */
  readonly instructions?: string;
  /**
   * Check `tools/call` arguments against the tool's JSON Schema before the
   * box sees them (default true). Failures are `isError` results.
   */
  readonly validateArguments?: boolean;
  /**
   * How long a 2026-07-28 client may cache list results (`ttlMs`, scope
   * `private`). Default 60 s; list_changed still reaches subscribed clients.
   */
  readonly listTtlMs?: number;
}

/** A server and the box calls it is running. */
export interface HostInstance {
  readonly server: Server;
  /** Running calls: each one's abort handle and its settling. */
  readonly calls: Map<AbortController, Promise<void>>;
}

/** Debounced within a tick, so a burst of box changes is one notification. */
const LIST_CHANGED_METHODS = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
];

const DEFAULT_LIST_TTL_MS = 60_000;

let sharedElicitationValidator: AjvJsonSchemaValidator | undefined;

/** Builds fresh instances for one box; the argument validator is shared by all of them. */
export function instanceBuilder(
  box: ToolBox,
  info: ProviderHostInfo,
  options: ProviderHostOptions,
): () => HostInstance {
  const validator = options.validateArguments === false ? undefined : new ArgumentValidator();
  const identity: Implementation = { name: info.name, version: info.version };
  if (info.title !== undefined) identity.title = info.title;
  const capabilities = capabilitiesOf(box);
  const listHint: CacheHint = { ttlMs: options.listTtlMs ?? DEFAULT_LIST_TTL_MS, cacheScope: "private" };
  const cacheHints = {
    "tools/list": listHint,
    "prompts/list": listHint,
    "resources/list": listHint,
    "resources/templates/list": listHint,
  };

  return () => {
    // The SDK builds a validator per server unless given one; it only checks
    // elicitation answers, which the host never requests.
    sharedElicitationValidator ??= new AjvJsonSchemaValidator();
    const server = new Server(identity, {
      capabilities,
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      debouncedNotificationMethods: LIST_CHANGED_METHODS,
      jsonSchemaValidator: sharedElicitationValidator,
      cacheHints,
    });
    const calls = new Map<AbortController, Promise<void>>();
    handleStrictly(server, "tools/list", PAGINATED_PARAMS, () => ({ tools: box.descriptors().map(toMcpTool) }));
    // The SDK's Server checks tools/call requests strictly itself (InvalidParams, both eras), so the
    // handler is registered with unchecked params: the plain registration would parse them twice.
    server.setRequestHandler("tools/call", { params: CHECKED_BY_SERVER }, (params, ctx) =>
      callTool(box, validator, calls, params, ctx),
    );
    if (box.catalog !== undefined) registerCatalogHandlers(server, box.catalog);
    return { server, calls };
  };
}

async function callTool(
  box: ToolBox,
  validator: ArgumentValidator | undefined,
  calls: Map<AbortController, Promise<void>>,
  params: CallToolRequest["params"],
  ctx: ServerContext,
) {
  const name = params.name;
  const descriptor = findDescriptor(box, name);
  if (descriptor === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const input = params.arguments ?? {};
  if (validator !== undefined) {
    const check = validator.check(descriptor, input);
    if (!check.ok) return toolErrorResult(check.message);
  }
  const callerSignal = ctx.mcpReq.signal;
  const controller = new AbortController();
  const abort = () => controller.abort(callerSignal.reason);
  if (callerSignal.aborted) abort();
  else callerSignal.addEventListener("abort", abort, { once: true });
  let settle!: () => void;
  calls.set(controller, new Promise<void>((resolve) => (settle = resolve)));
  // Progress is flushed before the result (the transport writes in order, so
  // awaiting the latest send suffices). The SDK client (1.32 and 2.4) drops a
  // report that arrives in the same read as the result (typescript-sdk#2580).
  let lastProgress: Promise<void> | undefined;
  const onProgress = progressReporter(ctx.mcpReq._meta?.progressToken, (notification) => {
    lastProgress = ctx.mcpReq.notify(notification).catch(() => {});
  });
  try {
    const outcome = await runSafely(box, { id: randomUUID(), name, input }, controller.signal, onProgress);
    if (lastProgress !== undefined) await lastProgress;
    if (controller.signal.aborted && !callerSignal.aborted) {
      // Interrupted by the host, not by the client: say so, rather than leave
      // the client waiting for an answer that will never come.
      throw new ProtocolError(CONNECTION_CLOSED, `Call to '${name}' interrupted: the provider host is shutting down`);
    }
    return toCallToolResult(outcome);
  } finally {
    calls.delete(controller);
    settle();
    callerSignal.removeEventListener("abort", abort);
  }
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

/** Where a box's changes are announced: one session's server, or an HTTP handler's listen streams. */
export interface ChangeAnnouncer {
  tools(): void;
  resources(): void;
  prompts(): void;
}

/** Forwards the box's tool and catalog changes; returns the unsubscribe. */
export function announceChanges(box: ToolBox, announce: ChangeAnnouncer): () => void {
  const unsubscribers: Array<() => void> = [];
  if (box.onDescriptorsChanged !== undefined) unsubscribers.push(box.onDescriptorsChanged(() => announce.tools()));
  const catalog = box.catalog;
  if (catalog?.onChanged !== undefined) {
    unsubscribers.push(
      catalog.onChanged((change) => (change === "resources" ? announce.resources() : announce.prompts())),
    );
  }
  return () => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
  };
}

/** Announces through one server's own notifications (legacy sessions; stdio routes them to listen streams). */
export function serverAnnouncer(server: Server, isOpen: () => boolean): ChangeAnnouncer {
  const send = (notification: () => Promise<void>) => {
    if (isOpen()) notification().catch(() => {});
  };
  return {
    tools: () => send(() => server.sendToolListChanged()),
    resources: () => send(() => server.sendResourceListChanged()),
    prompts: () => send(() => server.sendPromptListChanged()),
  };
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
