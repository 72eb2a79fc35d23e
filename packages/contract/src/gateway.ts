/**
 * What a box of mounted servers can offer beyond tools, so a provider host can
 * republish it as a full MCP gateway. Shapes are MCP's own JSON objects
 * (`Resource`, `ResourceTemplate`, `Prompt`, `ReadResourceResult`,
 * `GetPromptResult`) passed through untouched, namespaced by the source.
 */
import type { JsonObject } from "./json";
import type { CallLogs, LogLevel } from "./call-logs";
import type { ToolRunner } from "./tool-run";
import type { ClientHostHooks } from "./client-host";
import type { InputRound } from "./input-round";
import type { SkillEntry } from "./skills";
import type { TraceContext } from "./gateway-access";
import type { TaskMethod } from "./task";

export interface GatewayCallOptions {
  readonly signal?: AbortSignal;
  /**
   * The client the request runs for: a server's requests for input during a
   * `prompts/get`, `resources/read` or `completion/complete` (2026 era) go to it.
   */
  readonly relayTo?: ClientHostHooks;
  /** Where the server's log messages caused by this request go (see `CallLogs`). */
  readonly logs?: CallLogs;
  /**
   * The caller answers a 2026-07-28 server's questions during a `prompts/get`
   * or `resources/read` itself: the result may then be the server's
   * `input_required` result as sent (`resultType: "input_required"`).
   */
  readonly inputRound?: InputRound;
  /** The trace the request belongs to, sent in the server's request's `_meta`. */
  readonly trace?: TraceContext;
}

export type GatewayChange = "resources" | "prompts";

/** One `notifications/message` from a mounted server: its params as sent, and who sent it. */
export interface ServerLogEntry {
  readonly server: string;
  readonly params: JsonObject;
}

export interface GatewayCatalog {
  listResources(options?: GatewayCallOptions): Promise<readonly JsonObject[]>;
  listResourceTemplates(options?: GatewayCallOptions): Promise<readonly JsonObject[]>;
  /** Reads by the URI this catalog listed; unknown URIs reject with a `ProtocolFault`. */
  readResource(uri: string, options?: GatewayCallOptions): Promise<JsonObject>;
  listPrompts(options?: GatewayCallOptions): Promise<readonly JsonObject[]>;
  /** Gets by the qualified prompt name this catalog listed. */
  getPrompt(name: string, args: Readonly<Record<string, string>>, options?: GatewayCallOptions): Promise<JsonObject>;
  /** Present when the catalog can change; returns an unsubscribe. */
  onChanged?(listener: (change: GatewayChange) => void): () => void;
  /**
   * `completion/complete`, routed by its `ref` (a prompt name or resource
   * template this catalog listed); the `CompleteResult` as the server sent it.
   */
  complete?(params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject>;
  /** Subscribe to updates of a resource by the URI this catalog listed (idempotent per URI). */
  subscribe?(uri: string, options?: GatewayCallOptions): Promise<void>;
  unsubscribe?(uri: string, options?: GatewayCallOptions): Promise<void>;
  /** A subscribed resource changed (the URI as this catalog listed it); returns an unsubscribe. */
  onResourceUpdated?(listener: (uri: string) => void): () => void;
  /** Set the level of every mounted server that logs (the least severe any client asked for). */
  setLogLevel?(level: LogLevel, options?: GatewayCallOptions): Promise<void>;
  /** Log messages from the mounted servers; returns an unsubscribe. */
  onLog?(listener: (entry: ServerLogEntry) => void): () => void;
  /** A client's roots changed: tell every mounted server that asked for roots. */
  notifyRootsChanged?(): Promise<void>;
  /**
   * Who runs a call by a tool name the box does not list, when one server
   * can answer it as it would directly (a gateway standing in for a single
   * server passes even unknown names on, so the caller gets that server's
   * own answer); undefined when no such server exists.
   */
  unlistedTool?(name: string): ToolRunner | undefined;
  /**
   * Skills extension: every mounted server's skills, entries as the server
   * sent them under the URIs this catalog publishes (files read through
   * `readResource` by those URIs).
   */
  listSkills?(options?: GatewayCallOptions): Promise<readonly SkillEntry[]>;
  /** `skills/get` by a `SKILL.md` URI this catalog publishes; an unknown one rejects with a `ProtocolFault`. */
  getSkill?(uri: string, options?: GatewayCallOptions): Promise<SkillEntry>;
  /**
   * Tasks extension: `tasks/get`, `tasks/update` or `tasks/cancel` on the
   * mounted `server` that created the task (`CreatedTask.server`), with that
   * server's own `taskId` in `params`; the result as sent. An unknown server
   * or one that is not ready rejects with a `ProtocolFault`.
   */
  taskRequest?(
    server: string,
    method: TaskMethod,
    params: JsonObject,
    options?: GatewayCallOptions,
  ): Promise<JsonObject>;
}
