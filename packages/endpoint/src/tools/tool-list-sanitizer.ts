/**
 * Tolerant `tools/list` in the 2026 era. There the SDK's codec checks every
 * spec result against the strict wire schema before any caller schema runs,
 * so one malformed tool throws the whole page away even on `request()` with
 * a lenient schema. This wrapper sits between the transport and the client:
 * it notes the ids of outgoing `tools/list` requests and, in their answers,
 * repairs each tool the SDK's own `ToolSchema` rejects (an unusable
 * `inputSchema` becomes an empty object schema, as the legacy-era listing
 * does; an unusable `outputSchema` is left out) or, failing that, drops it,
 * reporting why. Only while `active()` (the 2026 era): the legacy era's raw
 * path is tolerant already.
 */
import { ToolSchema } from "@modelcontextprotocol/core";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { invalidParamHeaders, isRecord } from "@indus/contract";

/** The fields read here, on any JSON-RPC message. */
interface Message {
  readonly id?: string | number | undefined;
  readonly method?: string | undefined;
  readonly result?: unknown;
}

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

/**
 * `transport` with `tools/list` answers cleaned before the client reads them.
 * Everything else (pid, stderr, sessionId, ...) is the transport's own.
 */
export function sanitizeToolLists(
  transport: Transport,
  active: () => boolean,
  onDropped: (issues: string[]) => void,
): Transport {
  const pending = new Set<string | number>();
  const clean = (message: Message): Message => {
    if (message.id === undefined || message.method !== undefined || !pending.delete(message.id)) return message;
    if (!isRecord(message.result)) return message;
    const { result, issues } = keepValidTools(message.result);
    if (issues.length > 0) onDropped(issues);
    return { ...message, result };
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === "send") {
        return (message: JSONRPCMessage, options?: unknown) => {
          const { method, id } = message as Message;
          if (method === "tools/list" && id !== undefined && active()) pending.add(id);
          return target.send(message, options as never);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, key, value: unknown) {
      if (key === "onmessage" && typeof value === "function") {
        const deliver = value as (message: JSONRPCMessage, extra?: unknown) => void;
        target.onmessage = (message, extra) =>
          deliver(pending.size > 0 ? (clean(message) as JSONRPCMessage) : message, extra);
        return true;
      }
      return Reflect.set(target, key, value, target);
    },
  });
}
