/**
 * Plan mode. The deck's `enter_plan_mode` and `exit_plan_mode` are side-effect
 * free, read-only marker tools: their results carry `{ enterPlanMode: true }`
 * or `{ exitPlan: true, plan }`, and the session (not the tool) flips the mode
 * and raises the approval handshake. The plan is saved with the deck's
 * plan-file helper (`<session>/plans/<base36-time>-<slug>.md`).
 */
import type { ToolCall, ToolResult } from "@indus/contract";
import { writePlan } from "@indus/deck";
import type { EventSink } from "../events";
import type { Transcript } from "./transcript";

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

/** Who plan mode reports to and asks. */
export interface PlanModeOptions {
  readonly emit: EventSink;
  readonly transcript: Pick<Transcript, "append" | "dir">;
  /** Asks the user to approve a plan; absent when nobody can answer. */
  readonly approvePlan?: PlanApprover;
  /** With no one to ask: approve plans automatically. */
  readonly autoApprovePlans: boolean;
}

const ENTERED_NOTE =
  "Plan mode is ON: only read-only tools will run. Explore, then call exit_plan_mode with your plan.";

/** The session's plan mode: on after `enter_plan_mode`, off once a plan is approved. */
export class PlanMode {
  private on = false;

  constructor(private readonly options: PlanModeOptions) {}

  get active(): boolean {
    return this.on;
  }

  /** `/clear` leaves plan mode. */
  reset(): void {
    this.on = false;
  }

  /** A resumed session that was in plan mode stays in it. */
  resume(): void {
    this.on = true;
  }

  /** Apply a marker from a tool's result; the note the model reads beside the result. */
  async apply(marker: PlanMarker, signal: AbortSignal): Promise<string> {
    if (marker.kind === "exit") return this.exit(marker.plan, signal);
    if (!this.on) {
      this.on = true;
      this.options.emit({ type: "plan_mode", active: true });
      this.options.transcript.append({ type: "plan_mode", active: true });
    }
    return ENTERED_NOTE;
  }

  /** The exit handshake: save the plan, ask for approval (or apply the non-interactive policy). */
  private async exit(plan: string, signal: AbortSignal): Promise<string> {
    if (plan.trim().length === 0) return "No plan was given: call exit_plan_mode again with the full plan in `plan`.";
    const file = await this.save(plan);
    const asked = this.options.approvePlan !== undefined;
    const approved = this.options.approvePlan
      ? await this.options.approvePlan(plan, signal).catch(() => false)
      : this.options.autoApprovePlans;
    if (approved) this.on = false;
    this.options.emit({ type: "plan_mode", active: this.on, planFile: file, approved });
    this.options.transcript.append({ type: "plan", file, approved });
    if (approved) return `The user approved the plan (saved to ${file}). Plan mode is OFF: carry the plan out now.`;
    if (asked)
      return `The user did not approve the plan (saved to ${file}). Plan mode stays ON: ask what to change, or revise the plan and call exit_plan_mode again.`;
    return `Nobody can approve plans in this non-interactive session (run with --yes or --allow exit_plan_mode to approve automatically). The plan is saved to ${file}. Plan mode stays ON: stop here and summarise the plan.`;
  }

  /** Where the plan was saved, or why it was not. */
  private async save(plan: string): Promise<string> {
    try {
      return await writePlan(this.options.transcript.dir, plan);
    } catch (error) {
      return `(not saved: ${(error as Error).message})`;
    }
  }
}
