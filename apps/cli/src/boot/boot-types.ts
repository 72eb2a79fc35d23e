/**
 * What booting the deck hands to every command: the runtime tool box (built-ins
 * plus grafted MCP tools), where each tool came from, each server's outcome,
 * config diagnostics, live MCP control, and one teardown.
 */
import type {
  EndpointPhase,
  FaultKind,
  JsonObject,
  ProtocolFault,
  SkillFile,
  ToolBox,
  ToolDescriptor,
} from "@indus/contract";
import type { SkillCommand } from "../skills/skill-commands";
import type { ServerTrust, TrustSession } from "../trust/trust-session";

export type ToolOrigin = "built-in" | "app" | "server";

export interface ServerReport {
  readonly id: string;
  readonly transport: string;
  /** The MCP era the connection runs in: `2026-07-28` or `legacy`. */
  readonly era?: string;
  /** The config file the server came from. */
  readonly source?: string;
  readonly phase: EndpointPhase;
  readonly toolCount: number;
  readonly connectMs?: number;
  readonly fault?: { readonly kind: FaultKind; readonly message: string };
  /** A ready server whose tool listing failed (timed out, bad reply): it offers no tools. */
  readonly listFault?: { readonly kind: FaultKind; readonly message: string };
  /** What the server sent that was dropped or repaired (a tool nested too deep, a bad `ttlMs`, ...). */
  readonly issues?: readonly string[];
  /** The server's `instructions` from initialize, for the briefing. */
  readonly instructions?: string;
  /** Last stderr lines of a stdio server (most useful when it failed). */
  readonly stderrTail?: readonly string[];
  /** How its definitions stand with the trust gate: withheld (changed since pinned, new, refused) and flagged. */
  readonly trust?: ServerTrust;
}

export interface ConfigDiagnostic {
  /** The deck's diagnostic kind (`placeholder`, `needs-approval`, `shadowed`, ...). */
  readonly kind?: string;
  readonly file: string;
  readonly row?: string;
  readonly message: string;
  readonly severity: "warning" | "error";
}

/** One server's resource (or template) as the `@server:` completion offers it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly name?: string;
  readonly template: boolean;
}

export interface PromptEntry {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly required: boolean }[];
}

/** Resources and prompts of mounted servers, by server, for `@server:uri` and `/server:prompt`. */
export interface McpCatalogView {
  resources(server: string): Promise<readonly ResourceEntry[]>;
  /** `resources/read` on that server, the MCP result untouched. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<JsonObject>;
  prompts(): Promise<readonly PromptEntry[]>;
  /** `prompts/get` on that server, the MCP result untouched. */
  getPrompt(server: string, name: string, args: Readonly<Record<string, string>>): Promise<JsonObject>;
  /** Every ready server's skills (SEP-2640) as `/<server>:<skill>` commands; no skill file is read. */
  skills?(): Promise<readonly SkillCommand[]>;
  /** A skill's `SKILL.md`, read from its server and verified against its entry (a mismatch rejects). */
  loadSkill?(skill: SkillCommand, signal?: AbortSignal): Promise<SkillFile>;
}

/** Live control of mounted servers for `/mcp` in the interactive session. */
export interface McpControl {
  servers(): readonly ServerReport[];
  reconnect(id: string): Promise<ServerReport>;
  /** Hide (or show again) a server's tools for the rest of the session. */
  setEnabled(id: string, enabled: boolean): void;
  /** Tell every ready server that can hear it that the client's roots changed; how many were told. */
  notifyRootsChanged?(): Promise<number>;
  readonly catalog?: McpCatalogView;
}

/** A catalog card the deck left out because nothing could serve it, and why (for `indusr tools`). */
export interface UnofferedTool {
  readonly tool: string;
  readonly reason: string;
}

/** MCP servers whose tools the model reaches only through `saas-action` discover/execute. */
export interface DeferredTools {
  /** Server id -> why: marked `"defer": true`, or over the tool-definition budget. */
  readonly servers: ReadonlyMap<string, "config" | "budget">;
  /** Their tools, named as a call names them (`indusr tools` lists them marked deferred). */
  descriptors(): readonly ToolDescriptor[];
  /** Estimated tokens of every MCP tool definition, and of those still sent to the model. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly budgetTokens?: number;
}

export interface BootedDeck {
  readonly box: ToolBox;
  origin(toolName: string): ToolOrigin;
  readonly servers: readonly ServerReport[];
  readonly diagnostics: readonly ConfigDiagnostic[];
  readonly mcp: McpControl;
  readonly deferred?: DeferredTools;
  /** The `websearch` backend and where its setting came from; none when unconfigured. */
  readonly webSearch?: { readonly name: string; readonly source: string };
  readonly unoffered?: readonly UnofferedTool[];
  /** The mounted servers' name clashes (`names: "as-is"`); absent when nothing was mounted. */
  readonly names?: NameClashes;
  /**
   * Resolves once every mounted server is ready or failed: already, unless a
   * boot wait (`bootWaitMs`) cut the wait short. Absent: nothing to wait for.
   */
  readonly settled?: Promise<void>;
  /** Hear of each mounted server that settles (ready or failed) while others still connect; the last one settles `settled`. */
  onServerSettled?(listener: (server: string) => void): () => void;
  /** The trust gate of this session's servers (absent with `--no-tools`): withheld definitions, flagged ones. */
  readonly trust?: TrustSession;
  /** Hear of a mounted server lost mid-session (it died, or is reconnecting) and of one back; returns an unsubscribe. */
  onServerChanged?(listener: (report: ServerReport) => void): () => void;
  close(): Promise<void>;
}

/** Clashes between mounted servers' names, as `ProtocolFault`s naming both servers (see `@indus/fleet`). */
export interface NameClashes {
  /** The clashes standing now, after the servers settled. */
  standing(): Promise<readonly ProtocolFault[]>;
  /** Each later clash (a list change), once. */
  onClash(listener: (fault: ProtocolFault) => void): () => void;
}
