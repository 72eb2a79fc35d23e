/**
 * The `<server>__<tool>` grammar. Remote tool names are unique only within
 * their own server, so the agent sees each under its server's id.
 */
export const QUALIFIER = "__";

/** Server ids: a letter, then letters, digits, `_` or `-`. */
export const SERVER_ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

/** Names every model provider accepts for a tool. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function isServerId(value: unknown): value is string {
  return typeof value === "string" && SERVER_ID_PATTERN.test(value);
}

/** One tool on one server, under its server-side name. */
export interface RemoteToolRef {
  readonly server: string;
  readonly name: string;
}

/** The agent-facing name of a remote tool: `<server>__<tool>`. */
export function qualifyToolName(ref: RemoteToolRef): string {
  return `${ref.server}${QUALIFIER}${ref.name}`;
}
