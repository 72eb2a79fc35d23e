/**
 * One agent session: the conversation, the turn loop, and the tool calls it
 * makes through the deck's tool box.
 *
 * Each turn is one streaming request to the provider (`turn-stream.ts`) with
 * every tool declared; the model's tool calls come back and the session runs
 * them itself: through the permission gate, read-only calls side by side,
 * mutating calls one at a time in the order the model asked, every call
 * cancellable through the task's AbortSignal, every result rendered and capped
 * before the model sees it. The loop ends when the model answers without
 * calling a tool, at `--max-turns`, on a model error, or on an interrupt.
 */
import path from "node:path";
import {
  jsonSchema,
  tool,
  type LanguageModel,
  type ModelMessage,
  type SystemModelMessage,
  type ToolResultPart,
  type ToolSet,
} from "ai";
import type { ToolCall, ToolDescriptor, ToolOutcome, ToolResult } from "@indus/contract";
import type { BootedDeck, ServerReport } from "../../boot/boot-types";
import { composeBriefing } from "./briefing";
import {
  addUsage,
  ZERO_USAGE,
  type AgentEvent,
  type EventSink,
  type RefusalKind,
  type ResultSubtype,
  type ServerStatusView,
  type UsageTotals,
} from "../events";
import { describeModelError } from "../model/model-error";
import type { PermissionGate } from "./permission";
import { writePlan } from "@indus/deck";
import { planMarker, type PlanApprover } from "./plan-mode";
import { DEFAULT_RESULT_MAX_CHARS, renderResult } from "./tool-output";
import { newSessionId, Transcript } from "./transcript";
import { gateView, type GateView } from "./gate-view";
import { streamTurn, type StreamedTurn } from "./turn-stream";

/** What of a booted deck the session uses (tests hand in their own). */
export type SessionDeck = Pick<BootedDeck, "box" | "origin" | "servers" | "diagnostics"> & {
  readonly mcp?: BootedDeck["mcp"];
  readonly deferred?: BootedDeck["deferred"];
};

export interface SessionOptions {
  readonly model: LanguageModel;
  readonly provider: string;
  readonly modelId: string;
  readonly baseUrl: string;
  readonly deck: SessionDeck;
  readonly cwd: string;
  readonly sessionDir: string;
  readonly gate: PermissionGate;
  /** Asks the user to approve a plan; absent when nobody can answer. */
  readonly approvePlan?: PlanApprover;
  /** With no one to ask: approve plans automatically (`--yes`, or `--allow exit_plan_mode`). */
  readonly autoApprovePlans: boolean;
  readonly maxTurns: number;
  readonly maxRetries: number;
  readonly maxOutputTokens?: number;
  readonly resultMaxChars?: number;
  readonly emit: EventSink;
  readonly sessionId?: string;
  /** How long a cancelled tool may take to settle before the session moves on. */
  readonly cancelGraceMs?: number;
  /** A `task` sub-agent's session (its own briefing opening). */
  readonly role?: "main" | "sub-agent";
  /** Opens a checkpoint per prompt, so `/rewind` can undo its file changes. */
  readonly checkpoints?: { begin(prompt: string): string };
  /** Folders besides `cwd` the user added (the client host's roots), read at every turn. */
  readonly addedDirs?: () => readonly string[];
  /** Notes for the model about server requests answered during a call to this tool (the client host's). */
  readonly hostNotes?: (toolName: string) => readonly string[];
}

export interface TaskResult {
  readonly subtype: ResultSubtype;
  readonly text: string;
  readonly error?: string;
  readonly turns: number;
  readonly usage: UsageTotals;
}

interface PendingCall {
  readonly call: ToolCall;
  /** What the permission gate judges (a `saas-action` execute is judged as the tool it runs). */
  readonly gate: GateView;
}

/** A running task's counters. */
interface TaskProgress {
  readonly started: number;
  turns: number;
  usage: UsageTotals;
}

const INTERRUPTED_TEXT = "Interrupted: the user stopped this call before it finished.";

export function serverView(report: ServerReport): ServerStatusView {
  return {
    id: report.id,
    transport: report.transport,
    phase: report.phase,
    toolCount: report.toolCount,
    ...(report.connectMs !== undefined ? { connectMs: report.connectMs } : {}),
    ...(report.source !== undefined ? { source: report.source } : {}),
    ...(report.fault !== undefined ? { fault: report.fault } : {}),
  };
}

/** The AI SDK tool set: schemas only, no `execute`, so the session runs every call. */
export function toModelTools(descriptors: readonly ToolDescriptor[]): ToolSet {
  const tools: ToolSet = {};
  for (const descriptor of descriptors) {
    tools[descriptor.name] = tool({
      description: descriptor.description,
      inputSchema: jsonSchema(descriptor.parameters as Parameters<typeof jsonSchema>[0]),
    });
  }
  return tools;
}

export class AgentSession {
  readonly id: string;
  readonly transcript: Transcript;
  private messages: ModelMessage[] = [];
  private planMode = false;
  private totalUsage: UsageTotals = ZERO_USAGE;
  private totalTurns = 0;
  /** The task running now, so usage spent on its behalf (sampling) counts into it. */
  private current: TaskProgress | undefined;
  private readonly disabled = new Set<string>();
  private readonly started = Date.now();

  constructor(private readonly options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.transcript = new Transcript(options.sessionDir, this.id, (message) => this.emit({ type: "warning", message }));
  }

  get inPlanMode(): boolean {
    return this.planMode;
  }

  get usage(): UsageTotals {
    return this.totalUsage;
  }

  get turns(): number {
    return this.totalTurns;
  }

  /** Servers as they are now (a `/mcp reconnect` changes them). */
  servers(): readonly ServerReport[] {
    return this.options.deck.mcp?.servers() ?? this.options.deck.servers;
  }

  /** Remember which servers `/mcp disable` switched off, for the briefing. */
  setServerEnabled(id: string, enabled: boolean): void {
    if (enabled) this.disabled.delete(id);
    else this.disabled.add(id);
  }

  private emit(event: AgentEvent): void {
    this.options.emit(event);
  }

  private descriptors(): readonly ToolDescriptor[] {
    return this.options.deck.box.descriptors();
  }

  /** The briefing as the model would get it right now. */
  briefing(): string {
    const addedDirs = this.options.addedDirs?.() ?? [];
    return composeBriefing({
      cwd: this.options.cwd,
      ...(addedDirs.length > 0 ? { addedDirs } : {}),
      descriptors: this.descriptors(),
      origin: (name) => this.options.deck.origin(name),
      servers: this.servers(),
      disabled: this.disabled,
      ...(this.options.deck.deferred ? { deferred: new Set(this.options.deck.deferred.servers.keys()) } : {}),
      planMode: this.planMode,
      ...(this.options.role ? { role: this.options.role } : {}),
    });
  }

  /** Announce the session: model, tools, and every server's outcome including startup failures. */
  start(): void {
    const descriptors = this.descriptors();
    const event: AgentEvent = {
      type: "session_start",
      sessionId: this.id,
      cwd: this.options.cwd,
      provider: this.options.provider,
      model: this.options.modelId,
      baseUrl: this.options.baseUrl,
      transcript: this.transcript.file,
      tools: descriptors.map((d) => ({
        name: d.name,
        origin: this.options.deck.origin(d.name),
        readOnly: d.annotations?.readOnlyHint === true,
      })),
      servers: this.servers().map(serverView),
      diagnostics: this.options.deck.diagnostics.map((d) => ({
        file: d.file,
        ...(d.row !== undefined ? { row: d.row } : {}),
        message: d.message,
        severity: d.severity,
      })),
    };
    this.transcript.append({ ...event, type: "session" });
    this.emit(event);
  }

  /** Forget the conversation (`/clear`); the transcript keeps it. */
  clear(): void {
    this.messages = [];
    this.planMode = false;
    this.transcript.append({ type: "clear" });
  }

  /**
   * The briefing and the conversation for one request. For Anthropic, two
   * cache breakpoints (after the tools and briefing, and at the newest
   * message) let every turn reuse the prefix the previous turn paid for.
   */
  private prompt(): { system: string | SystemModelMessage; messages: ModelMessage[] } {
    const briefing = this.briefing();
    if (this.options.provider !== "anthropic") return { system: briefing, messages: this.messages };
    const cache = { anthropic: { cacheControl: { type: "ephemeral" } } };
    const messages = [...this.messages];
    const last = messages.at(-1);
    if (last)
      messages[messages.length - 1] = {
        ...last,
        providerOptions: { ...last.providerOptions, ...cache },
      };
    return { system: { role: "system", content: briefing, providerOptions: cache }, messages };
  }

  private push(message: ModelMessage): void {
    this.messages.push(message);
    this.transcript.append({ type: "message", message });
  }

  /** Run one task: the user's prompt, then turns until the model is done. */
  async run(prompt: string, signal: AbortSignal): Promise<TaskResult> {
    const task: TaskProgress = { started: Date.now(), turns: 0, usage: ZERO_USAGE };
    this.current = task;
    this.options.checkpoints?.begin(prompt);
    this.push({ role: "user", content: prompt });
    try {
      for (;;) {
        if (signal.aborted) return this.finish(task, "interrupted", "", "interrupted by the user");
        const done = await this.runTurn(task, signal);
        if (done) return done;
      }
    } finally {
      this.current = undefined;
    }
  }

  /** Tokens the session's model spent outside its own turns (a server's sampling request). */
  countUsage(usage: Partial<UsageTotals>): void {
    this.totalUsage = addUsage(this.totalUsage, usage);
    if (this.current) this.current.usage = addUsage(this.current.usage, usage);
  }

  /** One request to the model and the calls it asked for; a result when the task ends with this turn. */
  private async runTurn(task: TaskProgress, signal: AbortSignal): Promise<TaskResult | undefined> {
    task.turns += 1;
    this.totalTurns += 1;
    const turn = task.turns;
    this.emit({ type: "turn_start", turn });

    const descriptors = this.descriptors();
    const byName = new Map(descriptors.map((d) => [d.name, d]));
    const readOnlyOf = (call: ToolCall) => byName.get(call.name)?.annotations?.readOnlyHint === true;
    const streamed = await streamTurn(
      {
        model: this.options.model,
        ...this.prompt(),
        tools: toModelTools(descriptors),
        signal,
        maxRetries: this.options.maxRetries,
        ...(this.options.maxOutputTokens !== undefined ? { maxOutputTokens: this.options.maxOutputTokens } : {}),
      },
      turn,
      (event) => this.emit(event),
      readOnlyOf,
    );
    task.usage = addUsage(task.usage, streamed.usage);
    this.totalUsage = addUsage(this.totalUsage, streamed.usage);
    const usage = { ...ZERO_USAGE, ...streamed.usage };

    if (signal.aborted) {
      // Keep what was said so the next prompt has its context.
      if (streamed.text.length > 0)
        this.push({
          role: "assistant",
          content: [{ type: "text", text: `${streamed.text}\n\n[interrupted by the user]` }],
        });
      this.emit({ type: "turn_end", turn, finishReason: "interrupted", usage });
      return this.finish(task, "interrupted", streamed.text, "interrupted by the user");
    }
    if (streamed.error) {
      this.emit({ type: "turn_end", turn, finishReason: "error", usage });
      return this.finish(
        task,
        "error_model",
        streamed.text,
        `model request failed: ${describeModelError(streamed.error.cause)}`,
      );
    }

    const toolMessage = await this.recordResponse(turn, streamed);
    this.emit({ type: "turn_end", turn, finishReason: streamed.finishReason, usage });

    const pending: PendingCall[] = streamed.calls
      .filter((call) => !streamed.answered.has(call.id))
      .map((call) => ({ call, gate: gateView(call, readOnlyOf(call)) }));
    if (pending.length === 0 && streamed.answered.size === 0) {
      if (toolMessage) this.push(toolMessage);
      if (streamed.finishReason === "length")
        this.emit({
          type: "warning",
          message: "the answer was cut off at the model's output limit (maxOutputTokens in settings)",
        });
      return this.finish(task, "success", streamed.text);
    }
    return this.answerCalls(task, turn, pending, toolMessage, streamed.text, signal);
  }

  /**
   * Keep the turn's assistant messages, report the calls the SDK answered
   * itself, and hand back its trailing tool message (ours join it).
   */
  private async recordResponse(
    turn: number,
    streamed: StreamedTurn,
  ): Promise<Extract<ModelMessage, { role: "tool" }> | undefined> {
    let toolMessage: Extract<ModelMessage, { role: "tool" }> | undefined;
    for (const message of await streamed.responseMessages()) {
      if (message.role === "tool") toolMessage = message;
      else this.push(message);
    }
    for (const [id, error] of streamed.answered) {
      const call = streamed.calls.find((c) => c.id === id);
      this.emit({
        type: "tool_result",
        turn,
        id,
        name: call?.name ?? "?",
        isError: true,
        content: error,
        durationMs: 0,
      });
    }
    return toolMessage;
  }

  /** Run (or refuse, past the turn limit) the turn's calls and file their results; a result when the task ends. */
  private async answerCalls(
    task: TaskProgress,
    turn: number,
    pending: readonly PendingCall[],
    toolMessage: Extract<ModelMessage, { role: "tool" }> | undefined,
    text: string,
    signal: AbortSignal,
  ): Promise<TaskResult | undefined> {
    const outOfTurns = task.turns >= this.options.maxTurns;
    const parts = outOfTurns
      ? pending.map((p) =>
          this.refusedPart(turn, p.call, "max-turns", "Not run: the session reached its turn limit (--max-turns)."),
        )
      : await this.runCalls(turn, pending, signal);
    const content = [...(toolMessage?.content ?? []), ...parts] as ToolResultPart[];
    if (content.length > 0) this.push({ role: "tool", content });

    if (signal.aborted) return this.finish(task, "interrupted", text, "interrupted by the user");
    if (outOfTurns)
      return this.finish(
        task,
        "error_max_turns",
        text,
        `stopped after ${task.turns} turn${task.turns === 1 ? "" : "s"} (--max-turns ${this.options.maxTurns})`,
      );
    return undefined;
  }

  /** Report and record how the task ended. */
  private finish(task: TaskProgress, subtype: ResultSubtype, text: string, error?: string): TaskResult {
    const { turns, usage } = task;
    const result: TaskResult = { subtype, text, ...(error !== undefined ? { error } : {}), turns, usage };
    const event: AgentEvent = {
      type: "result",
      subtype,
      isError: subtype !== "success",
      result: text,
      ...(error !== undefined ? { error } : {}),
      sessionId: this.id,
      turns,
      durationMs: Date.now() - task.started,
      usage,
      transcript: this.transcript.file,
    };
    this.transcript.append({ ...event, type: "result" });
    this.emit(event);
    return result;
  }

  private toolPart(call: ToolCall, isError: boolean, text: string): ToolResultPart {
    return {
      type: "tool-result",
      toolCallId: call.id,
      toolName: call.name,
      output: isError ? { type: "error-text", value: text } : { type: "text", value: text },
    };
  }

  private refusedPart(turn: number, call: ToolCall, kind: RefusalKind, message: string): ToolResultPart {
    this.emit({
      type: "tool_result",
      turn,
      id: call.id,
      name: call.name,
      isError: true,
      content: message,
      durationMs: 0,
      refused: kind,
    });
    this.transcript.append({ type: "tool_result", id: call.id, name: call.name, isError: true, refused: kind });
    return this.toolPart(call, true, message);
  }

  /**
   * Run the turn's calls in the model's order. Consecutive read-only calls
   * form one parallel batch; a mutating call waits for the batch before it,
   * passes the gate, and runs alone. Plan-mode markers apply as soon as their
   * result is in, so a `write` after `enter_plan_mode` in the same turn is refused.
   */
  private async runCalls(
    turn: number,
    pending: readonly PendingCall[],
    signal: AbortSignal,
  ): Promise<ToolResultPart[]> {
    const parts = new Array<ToolResultPart>(pending.length);
    let batch: number[] = [];

    const flush = async () => {
      const indices = batch;
      batch = [];
      const outcomes = await Promise.all(indices.map((i) => this.execute(pending[i]!.call, signal)));
      for (const [k, i] of indices.entries())
        parts[i] = await this.settle(turn, pending[i]!.call, outcomes[k]!, signal);
    };

    for (const [i, { call, gate }] of pending.entries()) {
      if (gate.readOnly) {
        batch.push(i);
        continue;
      }
      await flush();
      if (signal.aborted) {
        parts[i] = this.refusedPart(turn, call, "interrupted", INTERRUPTED_TEXT);
        continue;
      }
      const decision = await this.options.gate.check(gate.call, false, this.planMode, signal);
      if (!decision.ok) {
        parts[i] = this.refusedPart(
          turn,
          call,
          signal.aborted ? "interrupted" : decision.kind,
          signal.aborted ? INTERRUPTED_TEXT : decision.message,
        );
        continue;
      }
      parts[i] = await this.settle(turn, call, await this.execute(call, signal), signal);
    }
    await flush();
    return parts;
  }

  /** Run one call through the box. Never throws; a tool that ignores cancellation is left behind after a grace period. */
  private async execute(call: ToolCall, signal: AbortSignal): Promise<{ outcome: ToolOutcome; ms: number }> {
    const started = Date.now();
    if (signal.aborted)
      return {
        outcome: { callId: call.id, isError: true, content: [{ type: "text", text: INTERRUPTED_TEXT }] },
        ms: 0,
      };
    const running = this.options.deck.box.runner
      .run(call, {
        signal,
        onProgress: (progress) => this.emit({ type: "tool_progress", id: call.id, name: call.name, ...progress }),
      })
      .catch((error: unknown): ToolOutcome => ({
        callId: call.id,
        isError: true,
        content: [{ type: "text", text: `The tool failed: ${error instanceof Error ? error.message : String(error)}` }],
      }));
    const grace = this.options.cancelGraceMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    const abandoned = new Promise<ToolOutcome>((resolve) => {
      const onAbort = () => {
        timer = setTimeout(
          () => resolve({ callId: call.id, isError: true, content: [{ type: "text", text: INTERRUPTED_TEXT }] }),
          grace,
        );
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const outcome = await Promise.race([running, abandoned]);
    if (timer) clearTimeout(timer);
    return { outcome, ms: Date.now() - started };
  }

  /** Render a result for the model, apply plan-mode markers, report it. */
  private async settle(
    turn: number,
    call: ToolCall,
    done: { outcome: ToolOutcome; ms: number },
    signal: AbortSignal,
  ): Promise<ToolResultPart> {
    let result: ToolResult = done.outcome;
    let interrupted = false;
    if (signal.aborted && result.isError) {
      interrupted = true;
      result = { isError: true, content: [{ type: "text", text: `${INTERRUPTED_TEXT}\n${textOf(result)}`.trim() }] };
    }
    let note: string | undefined;
    const marker = interrupted ? undefined : planMarker(call, result);
    if (marker?.kind === "enter") {
      if (!this.planMode) {
        this.planMode = true;
        this.emit({ type: "plan_mode", active: true });
        this.transcript.append({ type: "plan_mode", active: true });
      }
      note = "Plan mode is ON: only read-only tools will run. Explore, then call exit_plan_mode with your plan.";
    } else if (marker?.kind === "exit") {
      note = await this.exitPlan(marker.plan, signal);
    }
    const rendered = renderResult(result, {
      spillDir: path.join(this.transcript.dir, "results"),
      callId: call.id,
      maxChars: this.options.resultMaxChars ?? DEFAULT_RESULT_MAX_CHARS,
    });
    const notes = [...(note ? [note] : []), ...(this.options.hostNotes?.(call.name) ?? [])];
    const text = [rendered.text, ...notes].join("\n\n");
    const isError = result.isError === true;
    this.emit({
      type: "tool_result",
      turn,
      id: call.id,
      name: call.name,
      isError,
      content: text,
      durationMs: done.ms,
      ...(interrupted ? { refused: "interrupted" as const } : {}),
      ...(rendered.capped ? { capped: rendered.capped } : {}),
    });
    this.transcript.append({
      type: "tool_result",
      id: call.id,
      name: call.name,
      isError,
      durationMs: done.ms,
      ...(rendered.capped ? { capped: rendered.capped } : {}),
    });
    return this.toolPart(call, isError, text);
  }

  /** The exit handshake: save the plan, ask for approval (or apply the non-interactive policy). */
  private async exitPlan(plan: string, signal: AbortSignal): Promise<string> {
    if (plan.trim().length === 0) return "No plan was given: call exit_plan_mode again with the full plan in `plan`.";
    let file: string;
    try {
      file = await writePlan(this.transcript.dir, plan);
    } catch (error) {
      file = `(not saved: ${(error as Error).message})`;
    }
    let approved: boolean;
    let asked = false;
    if (this.options.approvePlan) {
      asked = true;
      approved = await this.options.approvePlan(plan, signal).catch(() => false);
    } else {
      approved = this.options.autoApprovePlans;
    }
    if (approved) this.planMode = false;
    this.emit({ type: "plan_mode", active: this.planMode, planFile: file, approved });
    this.transcript.append({ type: "plan", file, approved });
    if (approved) return `The user approved the plan (saved to ${file}). Plan mode is OFF: carry the plan out now.`;
    if (asked)
      return `The user did not approve the plan (saved to ${file}). Plan mode stays ON: ask what to change, or revise the plan and call exit_plan_mode again.`;
    return `Nobody can approve plans in this non-interactive session (run with --yes or --allow exit_plan_mode to approve automatically). The plan is saved to ${file}. Plan mode stays ON: stop here and summarise the plan.`;
  }

  close(): void {
    this.transcript.close();
  }

  /** Total elapsed time and usage, for the interactive `/exit` line. */
  summary(): { readonly ms: number; readonly turns: number; readonly usage: UsageTotals } {
    return { ms: Date.now() - this.started, turns: this.totalTurns, usage: this.totalUsage };
  }
}

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block.value))).join("\n");
}
