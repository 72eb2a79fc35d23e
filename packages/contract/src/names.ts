/**
 * The `<server>__<tool>` grammar. Remote tool names are unique only within
 * their own server, so the agent sees each under its server's id.
 */
export const QUALIFIER = "__";

/** Server ids: a letter, then letters, digits, `_` or `-`. */
export const SERVER_ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

/** The longest tool name every model provider accepts: the one home of the 64-character rule. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Names every model provider accepts for a tool. */
export const TOOL_NAME_PATTERN = new RegExp(`^[a-zA-Z0-9_-]{1,${MAX_TOOL_NAME_LENGTH}}$`);

/** `base` cut so that `_<suffix>` fits within the length limit, then `_<suffix>` appended. */
export function withNameSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;
}

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
