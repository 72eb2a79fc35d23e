/**
 * Tolerant `tools/list` in the 2026 era. There the SDK's codec checks every
 * spec result against the strict wire schema before any caller schema runs,
 * so one malformed tool throws the whole page away even on `request()` with
 * a lenient schema. The inbound guard (`inbound-guard.ts`) runs this on each
 * `tools/list` answer before the client reads it: each tool the SDK's own
 * `ToolSchema` rejects is repaired (an unusable `inputSchema` becomes an
 * empty object schema, as the legacy-era listing does; an unusable
 * `outputSchema` is left out) or, failing that, dropped, with the reason.
 * The legacy era's raw path is tolerant already.
 */
import { ToolSchema } from "@modelcontextprotocol/core";
import { invalidParamHeaders, isRecord } from "@indus/contract";

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join(".") || "(entry)"}: ${issue.message}` : "invalid";
}

/** One tool as the wire schema accepts it, repaired if need be, or why it cannot be. */
function checkTool(tool: unknown): { tool: unknown; issue?: string } | { issue: string } {
  const check = ToolSchema.safeParse(tool);
  const name = isRecord(tool) && typeof tool["name"] === "string" ? `tool "${tool["name"]}"` : "a tools/list entry";
  if (check.success) {
    // SEP-2243: a tool with invalid routing-header declarations is excluded.
    const headers = invalidParamHeaders(isRecord(tool) ? tool["inputSchema"] : undefined);
    return headers ? { issue: `${name} was dropped: ${headers}` } : { tool };
  }
  const why = firstIssue(check.error);
  if (isRecord(tool)) {
    const { outputSchema: _dropped, ...rest } = tool;
    const repaired = { ...rest, inputSchema: isRecord(tool["inputSchema"]) ? tool["inputSchema"] : { type: "object" } };
    if (ToolSchema.safeParse(repaired).success) {
      return {
        tool: repaired,
        issue: `${name} does not match the MCP Tool schema (${why}); kept with its schemas repaired`,
      };
    }
  }
  return { issue: `${name} was dropped: it does not match the MCP Tool schema (${why})` };
}

/** The tools of one `tools/list` result as the wire schema accepts them, and an issue for each one changed. */
export function keepValidTools(result: Record<string, unknown>): { result: Record<string, unknown>; issues: string[] } {
  const tools = result["tools"];
  if (!Array.isArray(tools)) return { result, issues: [] };
  const issues: string[] = [];
  const kept: unknown[] = [];
  for (const tool of tools as unknown[]) {
    const checked = checkTool(tool);
    if (checked.issue !== undefined) issues.push(checked.issue);
    if ("tool" in checked) kept.push(checked.tool);
  }
  return issues.length === 0 ? { result, issues } : { result: { ...result, tools: kept }, issues };
}
