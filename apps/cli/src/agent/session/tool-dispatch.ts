/**
 * Tool dispatch: how one turn's tool calls run. Through the permission gate,
 * read-only calls side by side, mutating calls one at a time in the order the
 * model asked, every call cancellable through the task's AbortSignal (a tool
 * that ignores it is left behind after a grace period), every result rendered
 * and capped before the model sees it. Plan-mode markers apply as soon as their
 * result is in. Testable without a model: it needs a box, a gate and a sink.
 */
import path from "node:path";
import type { ToolResultPart } from "ai";
import type { TaskView, ToolBox, ToolCall, ToolOutcome, ToolResult } from "@indus/contract";
import type { EventSink, RefusalKind } from "../events";
import type { BackgroundTasks } from "./background-tasks";
import type { GateView } from "./gate-view";
import type { PermissionGate } from "./permission";
import { planMarker, type PlanMode } from "./plan-mode";
import { DEFAULT_RESULT_MAX_CHARS, renderResult } from "./tool-output";
import type { Transcript } from "./transcript";

export const INTERRUPTED_TEXT = "Interrupted: the user stopped this call before it finished.";

/** A call the model asked for, as the permission gate judges it. */
export interface PendingCall {
  readonly call: ToolCall;
  /** What the permission gate judges (a `saas-action` execute is judged as the tool it runs). */
  readonly gate: GateView;
}

export interface DispatchOptions {
  /** The box that runs calls (read per call: a session's box may be swapped). */
  readonly box: () => ToolBox;
  readonly gate: PermissionGate;
  readonly plan: PlanMode;
  readonly emit: EventSink;
  readonly transcript: Pick<Transcript, "append" | "dir">;
  readonly resultMaxChars?: number;
  /** How long a cancelled tool may take to settle before the session moves on. */
  readonly cancelGraceMs?: number;
  /** Notes for the model about server requests answered during a call to this tool. */
  readonly hostNotes?: (toolName: string) => readonly string[];
  /** Where a call its server runs as a task goes once it runs past the threshold (interactive sessions). */
  readonly background?: BackgroundTasks;
}

interface Executed {
  readonly outcome: ToolOutcome;
  readonly ms: number;
}

export class CallDispatcher {
  constructor(private readonly options: DispatchOptions) {}

  /**
   * Run the turn's calls in the model's order. Consecutive read-only calls
   * form one parallel batch; a mutating call waits for the batch before it,
   * passes the gate, and runs alone. Plan-mode markers apply as soon as their
   * result is in, so a `write` after `enter_plan_mode` in the same turn is refused.
   */
  async run(turn: number, pending: readonly PendingCall[], signal: AbortSignal): Promise<ToolResultPart[]> {
    const parts = new Array<ToolResultPart>(pending.length);
    let batch: number[] = [];
    const flush = async () => {
      const indices = batch;
      batch = [];
      const outcomes = await Promise.all(indices.map((i) => this.execute(pending[i]!.call, signal)));
      for (const [k, i] of indices.entries())
        parts[i] = await this.settle(turn, pending[i]!.call, outcomes[k]!, signal);
    };
    for (const [i, entry] of pending.entries()) {
      if (entry.gate.readOnly) {
        batch.push(i);
        continue;
      }
      await flush();
      parts[i] = await this.runMutating(turn, entry, signal);
    }
    await flush();
    return parts;
  }

  /** A call refused before it ran, reported and recorded like a result. */
  refused(turn: number, call: ToolCall, kind: RefusalKind, message: string): ToolResultPart {
    this.options.emit({
      type: "tool_result",
      turn,
      id: call.id,
      name: call.name,
      isError: true,
      content: message,
      durationMs: 0,
      refused: kind,
    });
    this.options.transcript.append({ type: "tool_result", id: call.id, name: call.name, isError: true, refused: kind });
    return toolPart(call, true, message);
  }

  /** A mutating call: refused once interrupted, else through the gate, then alone. */
  private async runMutating(turn: number, { call, gate }: PendingCall, signal: AbortSignal): Promise<ToolResultPart> {
    if (signal.aborted) return this.refused(turn, call, "interrupted", INTERRUPTED_TEXT);
    const decision = await this.options.gate.check(gate.call, false, this.options.plan.active, signal);
    if (!decision.ok)
      return this.refused(
        turn,
        call,
        signal.aborted ? "interrupted" : decision.kind,
        signal.aborted ? INTERRUPTED_TEXT : decision.message,
      );
    return this.settle(turn, call, await this.execute(call, signal), signal);
  }

  /**
   * Run one call through the box. Never throws; a tool that ignores
   * cancellation is left behind after a grace period; a task that runs past
   * the background threshold goes on in the background (see `BackgroundTasks`).
   */
  private async execute(call: ToolCall, signal: AbortSignal): Promise<Executed> {
    const started = Date.now();
    if (signal.aborted) return { outcome: interruptedOutcome(call), ms: 0 };
    // The call's own stop: the turn's while it is in the turn, `/tasks cancel` once in the background.
    const stop = new AbortController();
    const follow = () => stop.abort(signal.reason);
    signal.addEventListener("abort", follow, { once: true });
    const mover = backgroundMover(call, this.options.background, () => signal.removeEventListener("abort", follow));
    const running = this.options
      .box()
      .runner.run(call, {
        signal: stop.signal,
        onProgress: (progress) =>
          this.options.emit({ type: "tool_progress", id: call.id, name: call.name, ...progress }),
        onTask: (view) => mover.seen(view, running, stop),
      })
      .catch((error: unknown): ToolOutcome => ({
        callId: call.id,
        isError: true,
        content: [{ type: "text", text: `The tool failed: ${error instanceof Error ? error.message : String(error)}` }],
      }));
    const abandoned = afterGrace(signal, this.options.cancelGraceMs ?? 5_000, () => interruptedOutcome(call));
    const outcome = await Promise.race([running, abandoned.outcome, mover.moved]);
    abandoned.cancel();
    mover.cancel();
    if (!mover.isMoved()) signal.removeEventListener("abort", follow);
    return { outcome, ms: Date.now() - started };
  }

  /** Render a result for the model, apply plan-mode markers, report it. */
  private async settle(turn: number, call: ToolCall, done: Executed, signal: AbortSignal): Promise<ToolResultPart> {
    const interrupted = signal.aborted && done.outcome.isError === true;
    const result: ToolResult = interrupted
      ? { isError: true, content: [{ type: "text", text: `${INTERRUPTED_TEXT}\n${textOf(done.outcome)}`.trim() }] }
      : done.outcome;
    const marker = interrupted ? undefined : planMarker(call, result);
    const note = marker ? await this.options.plan.apply(marker, signal) : undefined;
    const rendered = renderResult(result, {
      spillDir: path.join(this.options.transcript.dir, "results"),
      callId: call.id,
      maxChars: this.options.resultMaxChars ?? DEFAULT_RESULT_MAX_CHARS,
    });
    const notes = [...(note ? [note] : []), ...(this.options.hostNotes?.(call.name) ?? [])];
    const text = [rendered.text, ...notes].join("\n\n");
    const isError = result.isError === true;
    const capped = rendered.capped ? { capped: rendered.capped } : {};
    this.options.emit({
      type: "tool_result",
      turn,
      id: call.id,
      name: call.name,
      isError,
      content: text,
      durationMs: done.ms,
      ...(interrupted ? { refused: "interrupted" as const } : {}),
      ...capped,
    });
    this.options.transcript.append({
      type: "tool_result",
      id: call.id,
      name: call.name,
      isError,
      durationMs: done.ms,
      ...capped,
    });
    return toolPart(call, isError, text);
  }
}

/** Resolves to `late()` once `graceMs` has passed after `signal` aborts; `cancel` stops the clock. */
function afterGrace(
  signal: AbortSignal,
  graceMs: number,
  late: () => ToolOutcome,
): { outcome: Promise<ToolOutcome>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const outcome = new Promise<ToolOutcome>((resolve) => {
    const onAbort = () => {
      timer = setTimeout(() => resolve(late()), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return { outcome, cancel: () => timer && clearTimeout(timer) };
}

/**
 * Watches a call's task (`seen` on each of its states) and, once it has run
 * `background.afterMs` as a task, hands it to `background` and resolves
 * `moved` with what the model is told instead of the result.
 */
function backgroundMover(call: ToolCall, background: BackgroundTasks | undefined, detach: () => void) {
  let latest: TaskView | undefined;
  let timer: NodeJS.Timeout | undefined;
  let moved = false;
  let resolve: (outcome: ToolOutcome) => void = () => undefined;
  const promise = new Promise<ToolOutcome>((done) => (resolve = done));
  return {
    moved: promise,
    isMoved: () => moved,
    cancel: () => clearTimeout(timer),
    seen(view: TaskView, running: Promise<ToolOutcome>, stop: AbortController): void {
      latest = view;
      if (background === undefined || timer !== undefined) return;
      timer = setTimeout(() => {
        moved = true;
        detach();
        const n = background.adopt(call, () => latest ?? view, running, stop);
        resolve(backgroundedOutcome(call, n, view));
      }, background.afterMs);
    },
  };
}

function backgroundedOutcome(call: ToolCall, n: number, view: TaskView): ToolOutcome {
  const text =
    `This call runs in the background as task ${view.taskId} on server ${view.server} (background task ${n}). ` +
    "Its result will be given to you with a later message when it ends; do not call the tool again for it.";
  return { callId: call.id, isError: false, content: [{ type: "text", text }] };
}

function interruptedOutcome(call: ToolCall): ToolOutcome {
  return { callId: call.id, isError: true, content: [{ type: "text", text: INTERRUPTED_TEXT }] };
}

function toolPart(call: ToolCall, isError: boolean, text: string): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    output: isError ? { type: "error-text", value: text } : { type: "text", value: text },
  };
}

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block.value))).join("\n");
}
