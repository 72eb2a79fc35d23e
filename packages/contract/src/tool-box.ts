/**
 * The tool-box kernel: what a model is told about (descriptors) and what
 * fulfils a call (the runner). The deck, a mounted fleet and the provider host
 * all speak these types, so one box can be built, grafted and published.
 */
import type { JsonObject, JsonSchema, JsonValue } from "./json";
import type { GatewayCatalog } from "./gateway";
import type { ClientHostHooks } from "./client-host";

/** Behaviour hints, as MCP's tool annotations name them. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What the model is told about one tool. */
export interface ToolDescriptor {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object describing the call's arguments. */
  readonly parameters: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /**
   * The MCP `Tool` exactly as its server sent it (`inputSchema`,
   * `outputSchema`, `annotations`, `title`, `icons`, `_meta`), for a gateway
   * to republish unchanged under `name`. Absent for built-in tools. Never
   * shown to a model: `parameters` is the model's normalized view.
   */
  readonly wire?: JsonObject;
}

/** One request from the model to run a tool. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * A content block of a tool result: text for the model to read, or any other
 * JSON value (MCP images, audio and resources ride here untouched).
 */
export type ToolContentBlock =
  { readonly type: "text"; readonly text: string } | { readonly type: "json"; readonly value: JsonValue };

/** What a tool produces. */
export interface ToolResult {
  readonly content: readonly ToolContentBlock[];
  readonly isError?: boolean;
  /** Structured output, when the tool declares an output schema. */
  readonly structuredContent?: { readonly [key: string]: JsonValue };
  /**
   * The MCP `CallToolResult` exactly as the server sent it (every content
   * block, `structuredContent`, `_meta`), when a remote server produced it;
   * a gateway returns it unchanged.
   */
  readonly wire?: JsonObject;
}

/** A runner's answer to one call: the result, tagged with the call it answers. */
export interface ToolOutcome extends ToolResult {
  readonly callId: string;
  readonly isError: boolean;
}

/** Progress a long-running tool reports (MCP `notifications/progress`). */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface RunOptions {
  /** Aborting cancels the call; the tool must stop and resolve promptly. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
  /**
   * The client this call runs for. A server's requests made during the call
   * (elicitation, sampling, roots) go to it, and only to it; a hook it
   * leaves out is a capability that client lacks.
   */
  readonly peer?: ClientHostHooks;
}

/** Fulfils calls by name. Never rejects: failures are `isError` outcomes. */
export interface ToolRunner {
  run(call: ToolCall, options?: RunOptions): Promise<ToolOutcome>;
}

/** A set of tools a model can call, and the runner that fulfils them. */
export interface ToolBox {
  descriptors(): readonly ToolDescriptor[];
  readonly runner: ToolRunner;
  /** Present when the set of tools can change; returns an unsubscribe. */
  onDescriptorsChanged?(listener: () => void): () => void;
  /** Resources and prompts of the servers behind the box, when it has any. */
  readonly catalog?: GatewayCatalog;
}
