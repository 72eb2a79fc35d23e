/**
 * How the permission gate sees a call. Most calls are what they say. A
 * `saas-action` call is judged by what it does: `discover` only searches (so
 * it is read-only), and `execute` is judged as the tool it runs, so
 * `--allow everything__*` approves a deferred `everything__echo` exactly as it
 * would the mounted one, and plan mode refuses it the same way. A `task` call
 * is read-only unless it asks for the `general` sub-agent, which may change
 * things, and reading the `memory` notes is read-only too.
 */
import type { ToolCall } from "@indus/contract";

export interface GateView {
  readonly call: ToolCall;
  readonly readOnly: boolean;
}

function field(input: unknown, keys: readonly string[]): unknown {
  if (input === null || typeof input !== "object") return undefined;
  const object = input as Record<string, unknown>;
  for (const key of keys) if (object[key] !== undefined) return object[key];
  return undefined;
}

export function gateView(call: ToolCall, readOnly: boolean): GateView {
  // An `explore` sub-agent only reads; a `general` one is judged as `task` itself.
  if (call.name === "memory" && field(call.input, ["action"]) === "read") return { call, readOnly: true };
  if (call.name === "task") return { call, readOnly: field(call.input, ["agent", "subagent_type"]) !== "general" };
  if (call.name !== "saas-action") return { call, readOnly };
  const action = field(call.input, ["action"]);
  if (action === "discover") return { call, readOnly: true };
  const target = field(call.input, ["slug", "name", "tool", "action_slug", "actionSlug"]);
  if (action !== "execute" || typeof target !== "string" || target.length === 0) return { call, readOnly };
  return {
    call: { id: call.id, name: target, input: field(call.input, ["params", "arguments"]) ?? {} },
    readOnly: false,
  };
}
