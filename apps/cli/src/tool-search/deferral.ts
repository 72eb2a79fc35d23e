/**
 * Which MCP servers' tools stay out of the model's tool list. Every tool
 * definition is sent on every turn, so a big fleet can fill most of the
 * context. Servers marked `"defer": true` are always deferred; when the rest
 * still cost more than the budget, they are all deferred (as Claude Code's
 * tool search does), and the model reaches them through `saas-action`.
 */

/** What a definition costs on the wire: name, description and schema. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
}

/** A rough, provider-neutral tokens-per-byte figure for JSON-heavy text. */
export const BYTES_PER_TOKEN = 4;
/** The share of the context window MCP tool definitions may take before they are deferred. */
export const DEFAULT_BUDGET_SHARE = 0.1;

export function definitionBytes(tools: readonly ToolDefinition[]): number {
  let bytes = 0;
  for (const tool of tools)
    bytes += Buffer.byteLength(
      JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }),
    );
  return bytes;
}

export interface DeferralInput {
  readonly tools: readonly (ToolDefinition & { readonly server: string })[];
  readonly servers: readonly { readonly id: string; readonly defer?: boolean | undefined }[];
  /** Tokens the visible MCP definitions may take; none means no budget. */
  readonly budgetTokens?: number;
}

export interface Deferral {
  readonly deferred: ReadonlySet<string>;
  /** Why: `config` (marked `defer`) or `budget`. */
  readonly reasons: ReadonlyMap<string, "config" | "budget">;
  /** Estimated tokens of the MCP definitions left visible before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

export function chooseDeferred(input: DeferralInput): Deferral {
  const reasons = new Map<string, "config" | "budget">();
  for (const server of input.servers) if (server.defer === true) reasons.set(server.id, "config");
  const tokensBefore = Math.ceil(definitionBytes(input.tools) / BYTES_PER_TOKEN);
  const visible = () => input.tools.filter((t) => !reasons.has(t.server));
  let tokensAfter = Math.ceil(definitionBytes(visible()) / BYTES_PER_TOKEN);
  if (input.budgetTokens !== undefined && tokensAfter > input.budgetTokens) {
    for (const server of input.servers) if (!reasons.has(server.id)) reasons.set(server.id, "budget");
    tokensAfter = 0;
  }
  return { deferred: new Set(reasons.keys()), reasons, tokensBefore, tokensAfter };
}

/** Context windows by provider when the settings do not name one. */
export function defaultContextWindow(provider: string): number {
  return provider === "anthropic" ? 200_000 : 128_000;
}
