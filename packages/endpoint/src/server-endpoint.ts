/**
 * One live connection to one MCP server, as its users see it: its status and
 * every request, each handed to the part that does it. The lifecycle (phases,
 * open, reconnect, renewal, shutdown) is `connect/lifecycle.ts`; requests
 * reach the live session through the session port (`connect/session-access.ts`):
 * tool calls (`tools/tool-calls.ts`), the tool list (`tools/tool-catalog.ts`),
 * resources and prompts (`catalog/`), the relayed members (`relay/relay-members.ts`).
 */
import type { ServerCapabilities, Transport } from "@modelcontextprotocol/client";
import {
  SERVER_ID_PATTERN,
  type EndpointPhase,
  type EndpointStatus,
  type GatewayCallOptions,
  type InvokeOptions,
  type JsonObject,
  type LogLevel,
  type McpEndpoint,
  type ProtocolEra,
  type ProtocolFault,
  type RawCall,
  type RawForward,
  type RemoteCallResult,
  type RemoteTool,
  type ServerConfig,
  type SkillEntry,
  type SkillFile,
  type TaskMethod,
  type TransportKind,
} from "@indus/contract";
import { CatalogChanges, watchListChanges, type CatalogChange } from "./catalog/catalog-changes";
import { EndpointLifecycle, type SessionHooks } from "./connect/lifecycle";
import { endpointMembers, type EndpointMembers } from "./endpoint-members";
import { IssueLog } from "./inbound/issue-log";
import { resolveTimeouts, type EndpointOptions } from "./endpoint-options";
import { callsCanBeScoped } from "./relay/call-context";
import { registerHostHandlers } from "./relay/client-host";
import { RelayRouter } from "./relay/relay-routing";
import type { Session } from "./session";
import { StderrTail } from "./stdio/stderr-tail";
import type { ToolsChangeListener } from "./tools/tool-changes";
import { forwardRawCall } from "./tools/raw-call";

export type { CatalogChange } from "./catalog/catalog-changes";

export class McpServerEndpoint implements McpEndpoint {
  readonly config: ServerConfig;
  private readonly stderr: StderrTail;
  private readonly lifecycle: EndpointLifecycle;
  private readonly catalogChanges = new CatalogChanges();
  private readonly issueLog = new IssueLog();
  private readonly members: EndpointMembers;

  constructor(config: ServerConfig, injected?: Transport, options: EndpointOptions = {}) {
    this.config = config;
    const timeouts = resolveTimeouts(config, options);
    const logFile =
      options.logDir && SERVER_ID_PATTERN.test(config.id) ? `${options.logDir}/${config.id}.log` : undefined;
    this.stderr = new StderrTail(options.stderrLines, logFile);
    const router = new RelayRouter(config.id, options.host, () =>
      callsCanBeScoped(this.lifecycle.state.session, injected !== undefined),
    );
    const setup = { config, injected, options, timeouts, stderr: this.stderr, router };
    this.lifecycle = new EndpointLifecycle(setup, this.sessionHooks(router, options));
    this.members = endpointMembers(this.lifecycle, setup);
  }

  /** What each new session carries besides the lifecycle's own: host hooks, relayed notifications, list changes. */
  private sessionHooks(router: RelayRouter, options: EndpointOptions): SessionHooks {
    const refresh = () => void this.refreshTools().catch(() => undefined);
    return {
      wire: (session: Session, live: () => boolean) => {
        const { client } = session;
        registerHostHandlers(client, this.config.id, options.host, router);
        this.members.relay.attach(client, live);
        watchListChanges(client, live, refresh, this.catalogChanges);
      },
      adopted: (session, replacing) => {
        if (replacing && session.era === "legacy") this.members.relay.reapply();
      },
      recovered: () => {
        if (this.members.tools.cached) refresh();
      },
      dropped: (method, issues) =>
        method === "tools/list" ? this.members.tools.noteDropped(issues) : this.issueLog.add(method, issues),
      resourceSubscriptions: () => this.members.relay.resourceSubscriptions,
      logLevel: () => this.members.relay.logLevel,
    };
  }

  get phase(): EndpointPhase {
    return this.lifecycle.state.phase;
  }

  /** Called on each phase change, after `fault` is set for the new phase; returns an unsubscribe. */
  onPhaseChanged(listener: (phase: EndpointPhase) => void): () => void {
    return this.lifecycle.onPhaseChanged(listener);
  }

  /** The fault that put this endpoint in `faulted`, if any. */
  get fault(): ProtocolFault | undefined {
    return this.lifecycle.state.fault;
  }

  /** The server's `serverInfo` from `initialize`. */
  get serverInfo(): { readonly name: string; readonly version: string; readonly [key: string]: unknown } | undefined {
    return this.lifecycle.serverInfo;
  }

  /** The server's `instructions` from `initialize`: how it wants to be used. */
  get instructions(): string | undefined {
    return this.lifecycle.instructions;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.lifecycle.state.capabilities;
  }

  /** The transport actually in use: a `streamable-http` config may have fallen back to `sse`. */
  get transportKind(): TransportKind | undefined {
    return this.lifecycle.state.session?.kind;
  }

  /** The MCP era of the live connection: `2026-07-28` or `legacy`. */
  get era(): ProtocolEra | undefined {
    return this.lifecycle.state.session?.era;
  }

  /** For stdio servers: the spawned child's pid (and process group id). */
  get pid(): number | undefined {
    return this.lifecycle.opener.pid;
  }

  /** Why the last tool listing failed (timeout, bad reply) until one succeeds: say so, not "ready, 0 tools". */
  get listFault(): ProtocolFault | undefined {
    return this.members.tools.listFault;
  }

  /** Tools the last listing skipped, and why. */
  get listIssues(): readonly string[] {
    return this.members.tools.listIssues;
  }

  /** What the server sent that was dropped or repaired: recent messages, then the last tool listing. */
  get issues(): readonly string[] {
    return [...this.issueLog.list(), ...this.members.tools.listIssues.map((issue) => `tools/list: ${issue}`)];
  }

  /** The last lines the server wrote to stderr (stdio servers only). */
  stderrTail(maxLines?: number): string[] {
    return this.stderr.tail(maxLines);
  }

  status(): EndpointStatus {
    const { phase, fault, session } = this.lifecycle.state;
    const era = session?.era;
    const base = {
      server: this.config.id,
      phase,
      toolCount: this.members.tools.cached?.length ?? 0,
      ...(era ? { era } : {}),
    };
    return fault ? { ...base, fault } : base;
  }

  /** Listen for tool-list changes the server announces; returns an unsubscribe. */
  onToolsChanged(listener: ToolsChangeListener): () => void {
    return this.members.tools.onChanged(listener);
  }

  /** Listen for resource or prompt list changes; returns an unsubscribe. */
  onCatalogChanged(listener: (change: CatalogChange) => void): () => void {
    return this.catalogChanges.onChanged(listener);
  }

  open(): Promise<void> {
    return this.lifecycle.open();
  }

  close(): Promise<void> {
    return this.lifecycle.close();
  }

  /** Every tool the server offers (all pages), qualified and normalized; cached. */
  listTools(): Promise<readonly RemoteTool[]> {
    return this.members.tools.list();
  }

  /**
   * Re-read the whole tool list now. Refreshes coalesce: one asked for while another runs gets
   * that one's result, and one more pass follows it (its changes reach `onToolsChanged`).
   */
  refreshTools(): Promise<readonly RemoteTool[]> {
    return this.members.tools.refresh();
  }

  /**
   * Call a tool by its server-side name; the result is the server's, untouched.
   * The server's requests for input during the call go to `options.relayTo`
   * (see `relay-routing.ts`); in the 2026 era the call also declares that
   * client's capabilities, so the server itself refuses what it cannot answer.
   */
  invoke(name: string, args: unknown, options: InvokeOptions = {}): Promise<RemoteCallResult> {
    // A `tools/list_changed` the call caused is read before its result is handed on.
    return this.members.calls.invoke(name, args, options).then(async (result) => {
      await this.members.tools.idle();
      return result;
    });
  }

  /** A plain call taken raw on a ready stdio connection (see `tools/raw-call.ts`); undefined: use `invoke`. */
  forwardRaw(call: RawCall): RawForward | undefined {
    return forwardRawCall(this.lifecycle.access, this.members.tools, call);
  }

  complete(params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject> {
    return this.members.relay.complete(params, options);
  }

  subscribeResource(uri: string, options?: GatewayCallOptions): Promise<void> {
    return this.members.relay.subscribeResource(uri, options);
  }

  unsubscribeResource(uri: string, options?: GatewayCallOptions): Promise<void> {
    return this.members.relay.unsubscribeResource(uri, options);
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.members.relay.onResourceUpdated(listener);
  }

  setLogLevel(level: LogLevel, options?: GatewayCallOptions): Promise<void> {
    return this.members.relay.setLogLevel(level, options);
  }

  onLog(listener: (params: JsonObject) => void): () => void {
    return this.members.relay.onLog(listener);
  }

  notifyRootsChanged(): Promise<void> {
    return this.members.relay.notifyRootsChanged();
  }

  /** Tasks extension (see `ToolCalls.taskRequest`): `tasks/get|update|cancel` for a task this server created. */
  taskRequest(method: TaskMethod, params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject> {
    return this.members.calls.taskRequest(method, params, options);
  }

  /** Skills (SEP-2640; see `skills.ts`): every skill the server lists. */
  listSkills(options?: GatewayCallOptions): Promise<readonly SkillEntry[]> {
    return this.members.skills.list(options);
  }

  getSkill(uri: string, options?: GatewayCallOptions): Promise<SkillEntry> {
    return this.members.skills.get(uri, options);
  }

  readSkill(skill: SkillEntry, ref?: string, options?: GatewayCallOptions): Promise<SkillFile> {
    return this.members.skills.read(skill, ref, options);
  }

  /** Every resource (all pages), as the server describes them; `[]` without the capability. */
  listResources(options: { signal?: AbortSignal } = {}): Promise<JsonObject[]> {
    return this.members.catalog.listResources(options.signal);
  }

  /** Every resource template (all pages); `[]` without the capability. */
  listResourceTemplates(options: { signal?: AbortSignal } = {}): Promise<JsonObject[]> {
    return this.members.catalog.listResourceTemplates(options.signal);
  }

  /** Every prompt (all pages); `[]` without the capability. */
  listPrompts(options: { signal?: AbortSignal } = {}): Promise<JsonObject[]> {
    return this.members.catalog.listPrompts(options.signal);
  }

  /** `resources/read`, result untouched. */
  readResource(uri: string, options: GatewayCallOptions = {}): Promise<JsonObject> {
    return this.members.catalog.readResource(uri, options);
  }

  /** `prompts/get`, result untouched. */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>> = {},
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    return this.members.catalog.getPrompt(name, args, options);
  }
}

/** One endpoint per server config; `injected` bypasses the config's transport (in-process use, tests). */
export function createServerEndpoint(
  config: ServerConfig,
  injected?: Transport,
  options?: EndpointOptions,
): McpServerEndpoint {
  return new McpServerEndpoint(config, injected, options);
}
