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
import type { ModelMessage, ToolResultPart } from "ai";
import type { ToolCall, ToolDescriptor } from "@indus/contract";
import type { ServerReport } from "../../boot/boot-types";
import { defaultContextWindow } from "../../tool-search/deferral";
import { addUsage, ZERO_USAGE, type AgentEvent, type ResultSubtype, type UsageTotals } from "../events";
import { describeModelError } from "../model/model-error";
import { composeBriefing } from "./briefing";
import { isContextOverflow } from "./compaction";
import { Conversation } from "./conversation";
import { gateView } from "./gate-view";
import { PlanMode } from "./plan-mode";
import type { RestoredConversation } from "./resume";
import type { SessionOptions, TaskResult } from "./session-options";
import { serverChange, sessionStartEvent } from "./session-start";
import { CallDispatcher, type PendingCall } from "./tool-dispatch";
import { withBackgroundResults } from "./background-tasks";
import { newSessionId, Transcript } from "./transcript";
import { promptFor, streamTurn, toModelTools, type StreamedTurn } from "./turn-stream";

export type { SessionDeck, SessionOptions, TaskResult } from "./session-options";

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
  /** Where the task's prompt sits in the conversation (what is taken out if it cannot fit). */
  readonly from: number;
  /** The provider already refused this task's request as too long once (it was compacted then). */
  overflowed: boolean;
}

export class AgentSession {
  readonly id: string;
  readonly transcript: Transcript;
  private readonly conversation: Conversation;
  private readonly plan: PlanMode;
  private readonly dispatcher: CallDispatcher;
  private totalUsage: UsageTotals = ZERO_USAGE;
  private totalTurns = 0;
  /** The task running now, so usage spent on its behalf (sampling) counts into it. */
  private current: TaskProgress | undefined;
  private readonly disabled = new Set<string>();
  private readonly started = Date.now();
  private offServers: (() => void) | undefined;

  constructor(private readonly options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.transcript = new Transcript(options.sessionDir, this.id, (message) => this.emit({ type: "warning", message }));
    const emit = (event: AgentEvent) => this.emit(event);
    this.conversation = new Conversation({
      transcript: this.transcript,
      emit,
      model: options.model,
      maxRetries: options.maxRetries,
      contextWindow: options.contextWindow ?? defaultContextWindow(options.provider),
    });
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
      ...(options.background ? { background: options.background } : {}),
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
      ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
    });
  }

  /** Announce the session: model, tools, and every server's outcome including startup failures. */
  start(): void {
    const event = sessionStartEvent(this.id, this.options, this.transcript.file, this.servers());
    this.transcript.append({ ...event, type: "session" });
    this.emit(event);
    // A server lost (or back) mid-session is said at once; a sub-agent leaves that to its parent.
    if (this.options.role !== "sub-agent")
      this.offServers = this.options.deck.onServerChanged?.((report) => this.emit(serverChange(report)));
  }

  /** Forget the conversation (`/clear`); the transcript keeps it. */
  clear(): void {
    this.conversation.clear();
    this.plan.reset();
  }

  /** Go on with a conversation read back from a transcript (`--continue`, `--resume`, `/resume`). */
  restore(restored: RestoredConversation): void {
    this.conversation.restore(restored.messages, restored.id);
    if (restored.planMode) this.plan.resume();
  }

  /** `/compact [focus]`: summarise the older turns now. */
  compact(signal: AbortSignal, focus?: string): Promise<unknown> {
    return this.conversation.compact("manual", signal, focus);
  }

  /** How full the context window is (0..1, estimated), for `/status`. */
  contextFill(): number {
    return this.conversation.fill(this.overheadTokens());
  }

  /** The briefing and the tool definitions: sent with every request besides the conversation. */
  private overheadTokens(): number {
    return Math.ceil((this.briefing().length + JSON.stringify(this.descriptors()).length) / 4);
  }

  private push(message: ModelMessage): void {
    this.conversation.push(message);
  }

  /** Run one task: the user's prompt, then turns until the model is done. */
  async run(prompt: string, signal: AbortSignal): Promise<TaskResult> {
    const task: TaskProgress = {
      started: Date.now(),
      turns: 0,
      usage: ZERO_USAGE,
      from: this.conversation.length,
      overflowed: false,
    };
    this.current = task;
    this.options.checkpoints?.begin(prompt);
    this.push({ role: "user", content: withBackgroundResults(prompt, this.options.background) });
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
    await this.conversation.fit(this.overheadTokens(), signal);
    const descriptors = this.descriptors();
    const byName = new Map(descriptors.map((d) => [d.name, d]));
    const readOnlyOf = (call: ToolCall) => byName.get(call.name)?.annotations?.readOnlyHint === true;
    const streamed = await streamTurn(
      {
        model: this.options.model,
        ...promptFor(this.options.provider, this.briefing(), this.conversation.messages),
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
    if (streamed.error && !signal.aborted && isContextOverflow(streamed.error.cause))
      return this.overflowed(now, usage, streamed.error.cause);
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

  /**
   * The provider refused the request as too long: compact once and go on
   * (the loop sends the turn again); if that is not enough, or nothing older
   * is left, take the task out of the conversation so the next prompt works.
   */
  private async overflowed(now: Turn, usage: UsageTotals, cause: unknown): Promise<TaskResult | undefined> {
    const { task, turn, signal } = now;
    this.emit({ type: "turn_end", turn, finishReason: "error", usage });
    if (!task.overflowed) {
      task.overflowed = true;
      const done = await this.conversation.compact("overflow", signal);
      if (done.kind !== "nothing") return undefined;
    }
    this.conversation.dropFrom(Math.min(task.from, this.conversation.length));
    return this.finish(
      task,
      "error_model",
      "",
      `model request failed: ${describeModelError(cause)}; this prompt does not fit the model's context window even after compaction, so it was taken out of the conversation (the transcript keeps it): try a shorter prompt or smaller tool results`,
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
    this.offServers?.();
    this.transcript.close();
  }

  /** Total elapsed time and usage, for the interactive `/exit` line. */
  summary(): { readonly ms: number; readonly turns: number; readonly usage: UsageTotals } {
    return { ms: Date.now() - this.started, turns: this.totalTurns, usage: this.totalUsage };
  }
}
