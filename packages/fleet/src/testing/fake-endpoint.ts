/**
 * A scripted, in-process stand-in for an MCP endpoint, for tests of what the
 * fleet and its hosts do with endpoints (routing, filters, name salting,
 * list changes, reconnects, the catalog) where spawning a server is not the
 * point. Deterministic: opening can be held on a gate, so interleavings that
 * real processes cannot produce on demand become one line each.
 */
import {
  protocolFault,
  qualifyToolName,
  type ClientHostHooks,
  type EndpointPhase,
  type EndpointStatus,
  type GatewayChange,
  type InvokeOptions,
  type JsonObject,
  type JsonSchema,
  type LogLevel,
  type McpEndpoint,
  type ProtocolFault,
  type RemoteCallResult,
  type RemoteTool,
  type ServerConfig,
  type ToolAnnotations,
  type ToolsChange,
  type TransportKind,
  sameJson,
} from "@indus/contract";

/** One scripted tool. */
export interface FakeTool {
  /** The server-side name (the fleet qualifies it as `<server>__<name>`). */
  readonly name: string;
  readonly description?: string;
  readonly parameters?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /**
   * Fields of the MCP `Tool` beyond what the fake derives (`name`,
   * `description`, `inputSchema` from `parameters`, `annotations`), e.g.
   * `outputSchema`, `title`, `_meta`: the descriptor's `wire` carries them.
   */
  readonly wire?: JsonObject;
  /** What a call returns; by default the tool echoes its input as JSON text. */
  readonly run?: (args: unknown, options: InvokeOptions) => RemoteCallResult | Promise<RemoteCallResult>;
}

/** How a fake server behaves. Everything is optional: the default is a ready server with no tools. */
export interface FakeScript {
  readonly tools?: readonly FakeTool[];
  /** `open()` rejects with this fault and the endpoint ends `faulted`. */
  readonly openFault?: ProtocolFault;
  /** `open()` waits for this before it settles (hold a server in `connecting`). */
  readonly openGate?: Promise<unknown>;
  readonly resources?: readonly JsonObject[];
  readonly resourceTemplates?: readonly JsonObject[];
  readonly prompts?: readonly JsonObject[];
  readonly instructions?: string;
  readonly stderr?: readonly string[];
  /** Server capabilities beyond those derived from the script (e.g. `{ logging: {}, completions: {} }`). */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** What `completion/complete` answers (by default no values); it sees the params as the server would. */
  readonly complete?: (params: JsonObject) => JsonObject;
  /** Optional `McpEndpoint` members this fake leaves out, as an endpoint of a client that lacks them would. */
  readonly lacks?: readonly RelayMember[];
}

/** The optional relay members of `McpEndpoint` a fake implements unless told to lack them. */
export type RelayMember =
  | "complete"
  | "subscribeResource"
  | "unsubscribeResource"
  | "onResourceUpdated"
  | "setLogLevel"
  | "onLog"
  | "notifyRootsChanged";

/** One relayed request the fake received, in order. */
export type RelayCall =
  | { readonly kind: "complete"; readonly params: JsonObject }
  | { readonly kind: "subscribe" | "unsubscribe"; readonly uri: string }
  | { readonly kind: "setLogLevel"; readonly level: LogLevel }
  | { readonly kind: "rootsChanged" };

/** A plain text result, as a server would send it. */
export function textResult(text: string, isError = false): RemoteCallResult {
  return { content: [{ type: "text", text }], isError };
}

function remoteTool(server: string, tool: FakeTool): RemoteTool {
  const parameters = tool.parameters ?? { type: "object", properties: {} };
  return {
    ref: { server, name: tool.name },
    descriptor: {
      name: qualifyToolName({ server, name: tool.name }),
      description: tool.description ?? "",
      parameters,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      // As the real endpoint does: the tool as the server sent it, under its own name.
      wire: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: parameters as JsonObject,
        ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
        ...tool.wire,
      },
    },
  };
}

export class FakeEndpoint implements McpEndpoint {
  private phaseNow: EndpointPhase = "idle";
  private readonly phaseListeners = new Set<(phase: EndpointPhase) => void>();
  fault: ProtocolFault | undefined;
  listFault: ProtocolFault | undefined;
  issues: readonly string[] = [];
  /** Every call the endpoint received, in order (with the relayTo it ran for, when one was given). */
  readonly calls: { readonly name: string; readonly args: unknown; readonly relayTo?: ClientHostHooks }[] = [];
  /** Every completion, subscription, log level and roots change relayed to this server, in order. */
  readonly relayed: RelayCall[] = [];
  /** How many times `open()` started a connect, and `close()` ran. */
  opens = 0;
  closes = 0;
  private tools: readonly FakeTool[];
  private readonly toolListeners = new Set<(change: ToolsChange) => void>();
  private readonly catalogListeners = new Set<(change: GatewayChange) => void>();
  private readonly updateListeners = new Set<(uri: string) => void>();
  private readonly logListeners = new Set<(params: JsonObject) => void>();
  private opening: Promise<void> | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly script: FakeScript = {},
  ) {
    this.tools = script.tools ?? [];
    // An own `undefined` hides the prototype's method: the member is simply absent.
    for (const member of script.lacks ?? []) Object.defineProperty(this, member, { value: undefined });
  }

  /** Fakes speak the 2025 era once connected. */
  get era(): "legacy" | undefined {
    return this.phase === "ready" ? "legacy" : undefined;
  }

  get transportKind(): TransportKind | undefined {
    return this.phase === "ready" ? this.config.transport : undefined;
  }

  get serverCapabilities(): Readonly<Record<string, unknown>> | undefined {
    if (this.phase !== "ready") return undefined;
    return {
      tools: {},
      ...(this.script.resources || this.script.resourceTemplates ? { resources: {} } : {}),
      ...(this.script.prompts ? { prompts: {} } : {}),
      ...this.script.capabilities,
    };
  }

  get instructions(): string | undefined {
    return this.script.instructions;
  }

  get pid(): number | undefined {
    return undefined;
  }

  stderrTail(maxLines = 200): readonly string[] {
    return (this.script.stderr ?? []).slice(-maxLines);
  }

  open(): Promise<void> {
    if (this.phase === "ready") return Promise.resolve();
    if (this.phase === "faulted" && this.fault) return Promise.reject(this.fault);
    this.opening ??= this.connect();
    return this.opening;
  }

  private async connect(): Promise<void> {
    this.opens += 1;
    this.phase = "connecting";
    await this.script.openGate;
    if (this.phase !== "connecting") throw protocolFault("not-connected", `server "${this.config.id}" was closed`);
    if (this.script.openFault) {
      this.fault = this.script.openFault;
      this.phase = "faulted";
      throw this.fault;
    }
    this.phase = "ready";
  }

  close(): Promise<void> {
    this.closes += 1;
    if (this.phase !== "faulted") this.phase = "closed";
    return Promise.resolve();
  }

  status(): EndpointStatus {
    return {
      server: this.config.id,
      phase: this.phase,
      toolCount: this.phase === "ready" ? this.tools.length : 0,
      ...(this.fault ? { fault: this.fault } : {}),
    };
  }

  listTools(): Promise<readonly RemoteTool[]> {
    return this.whenReady(() => this.remoteTools());
  }

  async invoke(name: string, args: unknown, options: InvokeOptions = {}): Promise<RemoteCallResult> {
    this.requireReady();
    this.calls.push({ name, args, ...(options.relayTo ? { relayTo: options.relayTo } : {}) });
    const tool = this.tools.find((candidate) => candidate.name === name);
    if (!tool) throw protocolFault("tool-error", `server "${this.config.id}": unknown tool ${name}`);
    return tool.run ? tool.run(args, options) : textResult(JSON.stringify(args ?? {}));
  }

  /** Replace the tool list and tell listeners, as a server's `tools/list_changed` plus a re-listing would. */
  setTools(tools: readonly FakeTool[]): void {
    const before = new Map(this.remoteTools().map((tool) => [tool.ref.name, tool]));
    this.tools = tools;
    const after = this.remoteTools();
    const change: ToolsChange = {
      added: after.filter((tool) => !before.has(tool.ref.name)),
      changed: after.filter((tool) => {
        const old = before.get(tool.ref.name);
        return old !== undefined && !sameJson(old.descriptor, tool.descriptor);
      }),
      removed: [...before.values()].filter((tool) => !after.some((next) => next.ref.name === tool.ref.name)),
      tools: after,
    };
    for (const listener of this.toolListeners) listener(change);
  }

  /** Tell catalog listeners the server's resources or prompts changed. */
  emitCatalogChanged(change: GatewayChange): void {
    for (const listener of this.catalogListeners) listener(change);
  }

  /** Setting it tells phase listeners, as a real endpoint's transitions do. */
  get phase(): EndpointPhase {
    return this.phaseNow;
  }

  set phase(next: EndpointPhase) {
    if (next === this.phaseNow) return;
    this.phaseNow = next;
    for (const listener of [...this.phaseListeners]) listener(next);
  }

  onPhaseChanged(listener: (phase: EndpointPhase) => void): () => void {
    this.phaseListeners.add(listener);
    return () => this.phaseListeners.delete(listener);
  }

  onToolsChanged(listener: (change: ToolsChange) => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  onCatalogChanged(listener: (change: GatewayChange) => void): () => void {
    this.catalogListeners.add(listener);
    return () => this.catalogListeners.delete(listener);
  }

  listResources(): Promise<readonly JsonObject[]> {
    return this.whenReady(() => this.script.resources ?? []);
  }

  listResourceTemplates(): Promise<readonly JsonObject[]> {
    return this.whenReady(() => this.script.resourceTemplates ?? []);
  }

  listPrompts(): Promise<readonly JsonObject[]> {
    return this.whenReady(() => this.script.prompts ?? []);
  }

  readResource(uri: string): Promise<JsonObject> {
    return this.whenReady(() => ({ contents: [{ uri, text: `${this.config.id} says: ${uri}` }] }));
  }

  getPrompt(name: string, args: Readonly<Record<string, string>> = {}): Promise<JsonObject> {
    return this.whenReady(() => ({
      messages: [{ role: "user", content: { type: "text", text: `${name} ${JSON.stringify(args)}` } }],
    }));
  }

  complete(params: JsonObject): Promise<JsonObject> {
    return this.whenReady(() => {
      this.relayed.push({ kind: "complete", params });
      return this.script.complete?.(params) ?? { completion: { values: [], hasMore: false } };
    });
  }

  subscribeResource(uri: string): Promise<void> {
    return this.whenReady(() => void this.relayed.push({ kind: "subscribe", uri }));
  }

  unsubscribeResource(uri: string): Promise<void> {
    return this.whenReady(() => void this.relayed.push({ kind: "unsubscribe", uri }));
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  /** Send `notifications/resources/updated` for one of this server's URIs. */
  emitResourceUpdated(uri: string): void {
    for (const listener of this.updateListeners) listener(uri);
  }

  setLogLevel(level: LogLevel): Promise<void> {
    return this.whenReady(() => void this.relayed.push({ kind: "setLogLevel", level }));
  }

  onLog(listener: (params: JsonObject) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Send `notifications/message` with these params. */
  emitLog(params: JsonObject): void {
    for (const listener of this.logListeners) listener(params);
  }

  notifyRootsChanged(): Promise<void> {
    return this.whenReady(() => void this.relayed.push({ kind: "rootsChanged" }));
  }

  private remoteTools(): RemoteTool[] {
    return this.tools.map((tool) => remoteTool(this.config.id, tool));
  }

  private requireReady(): void {
    if (this.phase !== "ready") throw protocolFault("not-connected", `server "${this.config.id}" is ${this.phase}`);
  }

  private async whenReady<T>(read: () => T): Promise<T> {
    await Promise.resolve();
    this.requireReady();
    return read();
  }
}
