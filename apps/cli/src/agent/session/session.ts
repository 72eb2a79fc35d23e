/**
 * One agent session: the conversation and the turn loop.
 *
 * Each turn is one streaming request to the provider (`turn-stream.ts`) with
 * every tool declared; the model's tool calls come back and the session runs
 * them itself through `tool-dispatch.ts` (the permission gate, batching,
 * cancellation, capping) and `plan-mode.ts`. The loop ends when the model
 * answers without calling a tool, at `--max-turns`, on a model error, or on an
 * interrupt.
 */
import type { LanguageModel, ModelMessage, ToolResultPart } from "ai";
import type { ToolCall, ToolDescriptor } from "@indus/contract";
import type { BootedDeck, ServerReport } from "../../boot/boot-types";
import { composeBriefing } from "./briefing";
import {
  addUsage,
  ZERO_USAGE,
  type AgentEvent,
  type EventSink,
  type ResultSubtype,
  type UsageTotals,
  serverView,
} from "../events";
import { describeModelError } from "../model/model-error";
import type { PermissionGate } from "./permission";
import { PlanMode, type PlanApprover } from "./plan-mode";
import { CallDispatcher, type PendingCall } from "./tool-dispatch";
import { newSessionId, Transcript } from "./transcript";
import { gateView } from "./gate-view";
import { promptFor, streamTurn, toModelTools, type StreamedTurn } from "./turn-stream";

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

type ToolMessage = Extract<ModelMessage, { role: "tool" }>;

/** One turn of a running task. */
interface Turn {
  readonly task: TaskProgress;
  readonly turn: number;
  readonly signal: AbortSignal;
}

/** A running task's counters. */
interface TaskProgress {
  readonly started: number;
  turns: number;
  usage: UsageTotals;
}

export class AgentSession {
  readonly id: string;
  readonly transcript: Transcript;
  private messages: ModelMessage[] = [];
  private readonly plan: PlanMode;
  private readonly dispatcher: CallDispatcher;
  private totalUsage: UsageTotals = ZERO_USAGE;
  private totalTurns = 0;
  /** The task running now, so usage spent on its behalf (sampling) counts into it. */
  private current: TaskProgress | undefined;
  private readonly disabled = new Set<string>();
  private readonly started = Date.now();

  constructor(private readonly options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.transcript = new Transcript(options.sessionDir, this.id, (message) => this.emit({ type: "warning", message }));
    const emit = (event: AgentEvent) => this.emit(event);
    this.plan = new PlanMode({
      emit,
      transcript: this.transcript,
      ...(options.approvePlan ? { approvePlan: options.approvePlan } : {}),
      autoApprovePlans: options.autoApprovePlans,
    });
    this.dispatcher = new CallDispatcher({
      box: () => options.deck.box,
      gate: options.gate,
      plan: this.plan,
      emit,
      transcript: this.transcript,
      ...(options.resultMaxChars !== undefined ? { resultMaxChars: options.resultMaxChars } : {}),
      ...(options.cancelGraceMs !== undefined ? { cancelGraceMs: options.cancelGraceMs } : {}),
      ...(options.hostNotes ? { hostNotes: options.hostNotes } : {}),
    });
  }

  get inPlanMode(): boolean {
    return this.plan.active;
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
      planMode: this.plan.active,
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
    this.plan.reset();
    this.transcript.append({ type: "clear" });
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
    const now: Turn = { task, turn: task.turns, signal };
    this.emit({ type: "turn_start", turn: now.turn });
    const descriptors = this.descriptors();
    const byName = new Map(descriptors.map((d) => [d.name, d]));
    const readOnlyOf = (call: ToolCall) => byName.get(call.name)?.annotations?.readOnlyHint === true;
    const streamed = await streamTurn(
      {
        model: this.options.model,
        ...promptFor(this.options.provider, this.briefing(), this.messages),
        tools: toModelTools(descriptors),
        signal,
        maxRetries: this.options.maxRetries,
        ...(this.options.maxOutputTokens !== undefined ? { maxOutputTokens: this.options.maxOutputTokens } : {}),
      },
      now.turn,
      (event) => this.emit(event),
      readOnlyOf,
    );
    task.usage = addUsage(task.usage, streamed.usage);
    this.totalUsage = addUsage(this.totalUsage, streamed.usage);
    const usage = { ...ZERO_USAGE, ...streamed.usage };
    const cut = this.cutShort(now, streamed, usage);
    if (cut) return cut;

    const toolMessage = await this.recordResponse(now.turn, streamed);
    this.emit({ type: "turn_end", turn: now.turn, finishReason: streamed.finishReason, usage });
    const pending: PendingCall[] = streamed.calls
      .filter((call) => !streamed.answered.has(call.id))
      .map((call) => ({ call, gate: gateView(call, readOnlyOf(call)) }));
    if (pending.length === 0 && streamed.answered.size === 0) return this.answered(task, streamed, toolMessage);
    return this.answerCalls(now, pending, toolMessage, streamed.text);
  }

  /** A turn an interrupt or a failed request ended: the task ends with it. */
  private cutShort(now: Turn, streamed: StreamedTurn, usage: UsageTotals): TaskResult | undefined {
    const { task, turn } = now;
    if (now.signal.aborted) {
      // Keep what was said so the next prompt has its context.
      if (streamed.text.length > 0)
        this.push({
          role: "assistant",
          content: [{ type: "text", text: `${streamed.text}\n\n[interrupted by the user]` }],
        });
      this.emit({ type: "turn_end", turn, finishReason: "interrupted", usage });
      return this.finish(task, "interrupted", streamed.text, "interrupted by the user");
    }
    if (!streamed.error) return undefined;
    this.emit({ type: "turn_end", turn, finishReason: "error", usage });
    return this.finish(
      task,
      "error_model",
      streamed.text,
      `model request failed: ${describeModelError(streamed.error.cause)}`,
    );
  }

  /** The model answered without calling a tool: the task is done. */
  private answered(task: TaskProgress, streamed: StreamedTurn, toolMessage: ToolMessage | undefined): TaskResult {
    if (toolMessage) this.push(toolMessage);
    if (streamed.finishReason === "length")
      this.emit({
        type: "warning",
        message: "the answer was cut off at the model's output limit (maxOutputTokens in settings)",
      });
    return this.finish(task, "success", streamed.text);
  }

  /**
   * Keep the turn's assistant messages, report the calls the SDK answered
   * itself, and hand back its trailing tool message (ours join it).
   */
  private async recordResponse(turn: number, streamed: StreamedTurn): Promise<ToolMessage | undefined> {
    let toolMessage: ToolMessage | undefined;
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
    { task, turn, signal }: Turn,
    pending: readonly PendingCall[],
    toolMessage: ToolMessage | undefined,
    text: string,
  ): Promise<TaskResult | undefined> {
    const outOfTurns = task.turns >= this.options.maxTurns;
    const parts = outOfTurns
      ? pending.map((p) =>
          this.dispatcher.refused(
            turn,
            p.call,
            "max-turns",
            "Not run: the session reached its turn limit (--max-turns).",
          ),
        )
      : await this.dispatcher.run(turn, pending, signal);
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

  close(): void {
    this.transcript.close();
  }

  /** Total elapsed time and usage, for the interactive `/exit` line. */
  summary(): { readonly ms: number; readonly turns: number; readonly usage: UsageTotals } {
    return { ms: Date.now() - this.started, turns: this.totalTurns, usage: this.totalUsage };
  }
}
