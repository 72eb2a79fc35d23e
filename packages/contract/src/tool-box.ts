/**
 * The tool-box kernel: what a model is told about (descriptors) and what
 * fulfils a call (the runner). The deck, a mounted fleet and the provider host
 * all speak these types, so one box can be built, grafted and published.
 */
import type { JsonObject, JsonSchema } from "./json";
import type { GatewayCatalog } from "./gateway";
import type { ToolRunner } from "./tool-run";

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

/** A set of tools a model can call, and the runner that fulfils them. */
export interface ToolBox {
  descriptors(): readonly ToolDescriptor[];
  readonly runner: ToolRunner;
  /** Present when the set of tools can change; returns an unsubscribe. */
  onDescriptorsChanged?(listener: () => void): () => void;
  /** Resources and prompts of the servers behind the box, when it has any. */
  readonly catalog?: GatewayCatalog;
  /**
   * Why `name` may be missing from `descriptors()` now (a server behind the
   * box still connecting, say), for the error a call of it gets; undefined
   * when the box knows no reason.
   */
  whyUnknown?(name: string): string | undefined;
}
