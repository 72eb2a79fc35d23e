/**
 * What a box of mounted servers can offer beyond tools, so a provider host can
 * republish it as a full MCP gateway. Shapes are MCP's own JSON objects
 * (`Resource`, `ResourceTemplate`, `Prompt`, `ReadResourceResult`,
 * `GetPromptResult`) passed through untouched, namespaced by the source.
 */
import type { JsonObject } from "./json";

export interface GatewayCallOptions {
  readonly signal?: AbortSignal;
}

export type GatewayChange = "resources" | "prompts";

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
}
