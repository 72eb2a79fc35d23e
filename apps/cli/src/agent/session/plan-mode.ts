/**
 * Plan mode. The deck's `enter_plan_mode` and `exit_plan_mode` are side-effect
 * free, read-only marker tools: their results carry `{ enterPlanMode: true }`
 * or `{ exitPlan: true, plan }`, and the session (not the tool) flips the mode
 * and raises the approval handshake. The plan is saved with the deck's
 * plan-file helper (`<session>/plans/<base36-time>-<slug>.md`).
 */
import type { ToolCall, ToolResult } from "@indus/contract";

export type PlanMarker = { readonly kind: "enter" } | { readonly kind: "exit"; readonly plan: string };

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return asObject(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

/** Every object a result carries: structured content, JSON blocks, JSON-looking text. */
function objectsOf(result: ToolResult): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const structured = asObject(result.structuredContent);
  if (structured) found.push(structured);
  for (const block of result.content) {
    const object = block.type === "json" ? asObject(block.value) : parseObject(block.text);
    if (object) found.push(object);
  }
  return found;
}

/** The plan-mode marker in a tool's result, if it carries one. */
export function planMarker(call: ToolCall, result: ToolResult): PlanMarker | undefined {
  if (result.isError) return undefined;
  for (const object of objectsOf(result)) {
    if (object.enterPlanMode === true) return { kind: "enter" };
    if (object.exitPlan === true) {
      const plan = typeof object.plan === "string" ? object.plan : planFromInput(call.input);
      return { kind: "exit", plan };
    }
  }
  // A deck card may answer in prose only; the built-in names are then the marker.
  if (call.name === "enter_plan_mode") return { kind: "enter" };
  if (call.name === "exit_plan_mode") return { kind: "exit", plan: planFromInput(call.input) };
  return undefined;
}

function planFromInput(input: unknown): string {
  const object = asObject(input);
  return typeof object?.plan === "string" ? object.plan : "";
}

/** Approval of a proposed plan: asked on a terminal, decided by policy otherwise. */
export type PlanApprover = (plan: string, signal: AbortSignal) => Promise<boolean>;
