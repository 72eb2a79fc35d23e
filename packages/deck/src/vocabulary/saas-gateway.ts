import type { JsonValue } from "@indus/contract";

/** Discovers and executes third-party SaaS actions for the `saas-action` card. */
export interface SaasGatewayPort {
  discover(query: { readonly vendor?: string; readonly query?: string }, signal: AbortSignal): Promise<JsonValue>;
  execute(action: string, params: JsonValue, signal: AbortSignal): Promise<JsonValue>;
}
