/**
 * The behavioural interfaces the endpoint, the fleet, the mount and the host
 * pass between one another. Every failure is a `ProtocolFault`. The fleet and
 * the deck type against these, never against the endpoint's class, so the
 * MCP SDK stays behind `@indus/endpoint` and a test double can stand in.
 */
import type { ProtocolFault } from "./fault";
import type { CallLogs, LogLevel } from "./call-logs";
import type { GatewayCallOptions, GatewayChange } from "./gateway";
import type { ClientHostHooks } from "./client-host";
import type { JsonObject } from "./json";
import type { EndpointPhase } from "./phase";
import type { ServerConfig, TransportKind } from "./server-config";
import type { EndpointStatus, FleetStatus, RemoteCallResult, RemoteTool } from "./remote";
import type { ToolBox } from "./tool-box";
import type { RawCall, RawForward } from "./tool-run";
import type { ToolProgress } from "./tool-run";
import type { ProtocolEra } from "./protocol-era";
import type { InputRound } from "./input-round";
import type { SkillEntry, SkillFile } from "./skills";
import type { TraceContext } from "./gateway-access";
import type { TaskMethod, TaskMode, TaskView } from "./task";

export interface InvokeOptions {
  /** Aborting sends `notifications/cancelled` and fails the call. */
  readonly signal?: AbortSignal;
  /** Overrides the endpoint's call deadline for this call. */
  readonly timeoutMs?: number;
  /** Progress from the server; each one also resets the call deadline. */
  readonly onProgress?: (progress: ToolProgress) => void;
  /** The client the call runs for: the server's requests during this call go to it (see `RunOptions.relayTo`). */
  readonly relayTo?: ClientHostHooks;
  /** The caller's channel for the server's log messages caused by this call (see `CallLogs`). */
  readonly logs?: CallLogs;
  /** The caller answers a 2026-07-28 server's questions itself (see `RunOptions.inputRound`). */
  readonly inputRound?: InputRound;
  /** The trace the call belongs to, sent in the request's `_meta` (see `RunOptions.trace`). */
  readonly trace?: TraceContext;
  /** What the call does when its server answers with a task (see `TaskMode`; default `drive`). */
  readonly tasks?: TaskMode;
  /** The call became a task, or its task changed (see `RunOptions.onTask`). */
  readonly onTask?: (task: TaskView) => void;
}

/** One live connection to one MCP server. */
export interface ServerEndpoint {
  readonly config: ServerConfig;
  readonly phase: EndpointPhase;
  /** Connect and handshake. Single-flight: concurrent callers share one attempt. */
  open(): Promise<void>;
  /** Every tool the server offers, qualified and normalized; cached. */
  listTools(): Promise<readonly RemoteTool[]>;
  /** Call a tool by its server-side (unqualified) name. */
  invoke(name: string, args: unknown, options?: InvokeOptions): Promise<RemoteCallResult>;
  /** A call by server-side name taken raw, when this connection can (see `ForwardRaw`). */
  forwardRaw?(call: RawCall): RawForward | undefined;
  status(): EndpointStatus;
  /** Always lands in `closed` (or leaves `faulted` as it is); never throws. */
  close(): Promise<void>;
}

/** A name-keyed set of endpoints with one lifecycle and per-server isolation. */
export interface ServerFleet {
  /** Re-run the last start; `not-connected` before any start. */
  spinUp(): Promise<void>;
  /** Close every endpoint in parallel; never throws. */
  tearDown(): Promise<void>;
  endpoint(server: string): ServerEndpoint | undefined;
  endpoints(): readonly ServerEndpoint[];
  status(): FleetStatus;
}

/** What changed between two listings of one server's tools, keyed by the server-side name. */
export interface ToolsChange {
  readonly added: readonly RemoteTool[];
  readonly changed: readonly RemoteTool[];
  /** The tools as they were before they went away. */
  readonly removed: readonly RemoteTool[];
  /** The whole new listing. */
  readonly tools: readonly RemoteTool[];
}

/** What a fleet and its host need of one live MCP connection, beyond `ServerEndpoint`. */
export interface McpEndpoint extends ServerEndpoint {
  /** The transport actually in use (an HTTP server may have fallen back to SSE); undefined before connecting. */
  readonly transportKind: TransportKind | undefined;
  /** The MCP era of the live connection (`2026-07-28` or `legacy`), once connected. */
  readonly era: ProtocolEra | undefined;
  /** The capabilities the server declared in its handshake (`resources`, `prompts`, ...), as sent. */
  readonly serverCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** The server's `instructions` from its handshake, if it sent any. */
  readonly instructions: string | undefined;
  /** Why the last tool listing failed, while it has not succeeded since (a ready server then offers no tools). */
  readonly listFault: ProtocolFault | undefined;
  /**
   * What the server sent that was dropped or repaired on the way in (a tool
   * nested too deep, an invalid `ttlMs`, ...), each naming the method, the
   * item or field and the value; empty for a healthy server.
   */
  readonly issues: readonly string[];
  /** The server process's id while one runs (stdio servers); undefined otherwise. */
  readonly pid: number | undefined;
  /** The last lines the server wrote to stderr (stdio servers; empty otherwise). */
  stderrTail(maxLines?: number): readonly string[];
  /** Called on each phase change (`fault` already set for a failure); returns an unsubscribe. */
  onPhaseChanged?(listener: (phase: EndpointPhase) => void): () => void;
  /** Called after each re-listing that changed the tools; returns an unsubscribe. */
  onToolsChanged(listener: (change: ToolsChange) => void): () => void;
  /** Called when the server says its resources or prompts changed; returns an unsubscribe. */
  onCatalogChanged(listener: (change: GatewayChange) => void): () => void;
  listResources(options?: GatewayCallOptions): Promise<readonly JsonObject[]>;
  listResourceTemplates(options?: GatewayCallOptions): Promise<readonly JsonObject[]>;
  listPrompts(options?: GatewayCallOptions): Promise<readonly JsonObject[]>;
  readResource(uri: string, options?: GatewayCallOptions): Promise<JsonObject>;
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: GatewayCallOptions): Promise<JsonObject>;
  /** `completion/complete` with the server's own `ref` (prompt name or resource template); the `CompleteResult`. */
  complete?(params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject>;
  /** `resources/subscribe` / `resources/unsubscribe` by the server's own URI. */
  subscribeResource?(uri: string, options?: GatewayCallOptions): Promise<void>;
  unsubscribeResource?(uri: string, options?: GatewayCallOptions): Promise<void>;
  /** `notifications/resources/updated` (the server's own URI); returns an unsubscribe. */
  onResourceUpdated?(listener: (uri: string) => void): () => void;
  /** `logging/setLevel` on the server (when it declared `logging`). */
  setLogLevel?(level: LogLevel, options?: GatewayCallOptions): Promise<void>;
  /** `notifications/message` from the server, params as sent; returns an unsubscribe. */
  onLog?(listener: (params: JsonObject) => void): () => void;
  /** Tell the server the client's roots changed (`notifications/roots/list_changed`). */
  notifyRootsChanged?(): Promise<void>;
  /** Skills extension: every skill the server lists (all pages), entries as sent; empty when it offers none. */
  listSkills?(options?: GatewayCallOptions): Promise<readonly SkillEntry[]>;
  /** `skills/get`: one skill's entry by its `SKILL.md` URI, listed or not. */
  getSkill?(uri: string, options?: GatewayCallOptions): Promise<SkillEntry>;
  /**
   * Read one file of `skill` (default its `SKILL.md`; `ref` is relative to
   * the skill's root) and verify it against the entry. A file the entry does
   * not list, or whose size, digest or frontmatter differ, is refused with a
   * `protocol` fault (`data.reason`, `data.uri`) and none of it is returned.
   */
  readSkill?(skill: SkillEntry, ref?: string, options?: GatewayCallOptions): Promise<SkillFile>;
  /**
   * Tasks extension: `tasks/get`, `tasks/update` or `tasks/cancel` for a task
   * this server created (its own `taskId` in `params`); the result as sent. A
   * server's JSON-RPC error rejects as a fault carrying its `rpcCode`.
   */
  taskRequest?(method: TaskMethod, params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject>;
}

/** A fleet of `McpEndpoint`s that can replace one server's connection on demand. */
export interface McpFleet extends ServerFleet {
  endpoint(server: string): McpEndpoint | undefined;
  endpoints(): readonly McpEndpoint[];
  /** Replace one server's endpoint with a fresh one and connect it; undefined for an unknown id. Never throws. */
  reconnect(server: string): Promise<McpEndpoint | undefined>;
}

/**
 * Servers mounted as one tool box: the deck's mount port. The box carries
 * the servers' resources and prompts on `catalog`.
 */
export interface MountedServers {
  readonly box: ToolBox;
  readonly fleet: McpFleet;
  /** Resolves once every server is ready (its tools listed) or faulted. Never rejects. */
  readonly settled: Promise<void>;
}

/**
 * Mount `servers` (already validated) and start connecting them. Returns at
 * once, so the caller can watch `fleet.status()` while they connect. The CLI
 * passes one built from `@indus/fleet`; the deck never builds a fleet itself.
 */
export type MountServers = (servers: readonly ServerConfig[]) => MountedServers;
