/**
 * An `McpEndpoint` that forwards everything to another one: the base of an
 * endpoint that changes a few of its answers (the trust gate). Optional
 * members exist exactly when the inner endpoint has them, so a caller's
 * `endpoint.complete ? ... : ...` still sees what the server can do.
 */
import type {
  GatewayCallOptions,
  GatewayChange,
  InvokeOptions,
  JsonObject,
  McpEndpoint,
  RemoteCallResult,
  RemoteTool,
  ToolsChange,
  RawCall,
  RawForward,
} from "@indus/contract";

export class EndpointFacade implements McpEndpoint {
  readonly complete?: NonNullable<McpEndpoint["complete"]>;
  readonly subscribeResource?: NonNullable<McpEndpoint["subscribeResource"]>;
  readonly unsubscribeResource?: NonNullable<McpEndpoint["unsubscribeResource"]>;
  readonly onResourceUpdated?: NonNullable<McpEndpoint["onResourceUpdated"]>;
  readonly setLogLevel?: NonNullable<McpEndpoint["setLogLevel"]>;
  readonly onLog?: NonNullable<McpEndpoint["onLog"]>;
  readonly notifyRootsChanged?: NonNullable<McpEndpoint["notifyRootsChanged"]>;
  readonly listSkills?: NonNullable<McpEndpoint["listSkills"]>;
  readonly getSkill?: NonNullable<McpEndpoint["getSkill"]>;
  readonly readSkill?: NonNullable<McpEndpoint["readSkill"]>;
  readonly taskRequest?: NonNullable<McpEndpoint["taskRequest"]>;
  readonly onPhaseChanged?: NonNullable<McpEndpoint["onPhaseChanged"]>;

  constructor(protected readonly inner: McpEndpoint) {
    if (inner.complete) this.complete = inner.complete.bind(inner);
    if (inner.subscribeResource) this.subscribeResource = inner.subscribeResource.bind(inner);
    if (inner.unsubscribeResource) this.unsubscribeResource = inner.unsubscribeResource.bind(inner);
    if (inner.onResourceUpdated) this.onResourceUpdated = inner.onResourceUpdated.bind(inner);
    if (inner.setLogLevel) this.setLogLevel = inner.setLogLevel.bind(inner);
    if (inner.onLog) this.onLog = inner.onLog.bind(inner);
    if (inner.notifyRootsChanged) this.notifyRootsChanged = inner.notifyRootsChanged.bind(inner);
    if (inner.listSkills) this.listSkills = inner.listSkills.bind(inner);
    if (inner.getSkill) this.getSkill = inner.getSkill.bind(inner);
    if (inner.readSkill) this.readSkill = inner.readSkill.bind(inner);
    if (inner.taskRequest) this.taskRequest = inner.taskRequest.bind(inner);
    if (inner.onPhaseChanged) this.onPhaseChanged = inner.onPhaseChanged.bind(inner);
  }

  get config() {
    return this.inner.config;
  }
  get phase() {
    return this.inner.phase;
  }
  get transportKind() {
    return this.inner.transportKind;
  }
  get era() {
    return this.inner.era;
  }
  get serverCapabilities() {
    return this.inner.serverCapabilities;
  }
  get instructions() {
    return this.inner.instructions;
  }
  get listFault() {
    return this.inner.listFault;
  }

  get issues() {
    return this.inner.issues;
  }
  get pid() {
    return this.inner.pid;
  }

  open(): Promise<void> {
    return this.inner.open();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  status() {
    return this.inner.status();
  }
  stderrTail(maxLines?: number): readonly string[] {
    return this.inner.stderrTail(maxLines);
  }
  listTools(): Promise<readonly RemoteTool[]> {
    return this.inner.listTools();
  }
  invoke(name: string, args: unknown, options?: InvokeOptions): Promise<RemoteCallResult> {
    return this.inner.invoke(name, args, options);
  }
  forwardRaw(call: RawCall): RawForward | undefined {
    return this.inner.forwardRaw?.(call);
  }
  onToolsChanged(listener: (change: ToolsChange) => void): () => void {
    return this.inner.onToolsChanged(listener);
  }
  onCatalogChanged(listener: (change: GatewayChange) => void): () => void {
    return this.inner.onCatalogChanged(listener);
  }
  listResources(options?: GatewayCallOptions): Promise<readonly JsonObject[]> {
    return this.inner.listResources(options);
  }
  listResourceTemplates(options?: GatewayCallOptions): Promise<readonly JsonObject[]> {
    return this.inner.listResourceTemplates(options);
  }
  listPrompts(options?: GatewayCallOptions): Promise<readonly JsonObject[]> {
    return this.inner.listPrompts(options);
  }
  readResource(uri: string, options?: GatewayCallOptions): Promise<JsonObject> {
    return this.inner.readResource(uri, options);
  }
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: GatewayCallOptions): Promise<JsonObject> {
    return this.inner.getPrompt(name, args, options);
  }
}
