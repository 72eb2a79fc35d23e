import { QUALIFIER, qualifyToolName } from "@indus/contract";

/**
 * The agent-facing name of a grafted tool: `<server>__<tool>`. The same
 * grammar the fleet uses, so a ledger key and a runner route agree.
 */
export function qualifyBridgeName(server: string, tool: string): string {
  return qualifyToolName({ server, name: tool });
}

/**
 * The server that owns a qualified name: everything before the FIRST `__`.
 * `""` when the name carries no qualifier or leads with one (`"__x"`), so a
 * bare tool name never passes for a server id.
 */
export function serverOfQualified(name: string): string {
  const at = name.indexOf(QUALIFIER);
  return at <= 0 ? "" : name.slice(0, at);
}

/**
 * The server-side tool name: everything after the FIRST `__` (tool names may
 * contain `__` themselves). A name without a qualifier is returned unchanged.
 */
export function unqualifiedTool(name: string): string {
  const at = name.indexOf(QUALIFIER);
  return at < 0 ? name : name.slice(at + QUALIFIER.length);
}
