/**
 * The conversation the model is sent, and its record in the transcript. It
 * stays within the model's context window: compacted before a request once
 * it takes most of the window, compacted once more when the provider still
 * refuses it as too long, and, when nothing older is left to compact, the
 * task that overflowed is taken out, so one oversized prompt never jams the
 * session. The transcript keeps every message; a `compaction` entry records
 * the conversation as it continues (what a resume restores).
 */
import type { LanguageModel, ModelMessage } from "ai";
import type { AgentEvent } from "../events";
import { COMPACT_AT, compactConversation, estimateTokens, type Compaction } from "./compaction";
import type { Transcript } from "./transcript";

export type CompactionReason = "auto" | "overflow" | "manual";

export interface ConversationOptions {
  readonly transcript: Transcript;
  readonly emit: (event: AgentEvent) => void;
  readonly model: LanguageModel;
  readonly maxRetries: number;
  /** The model's context window in tokens. */
  readonly contextWindow: number;
}

export class Conversation {
  private list: ModelMessage[] = [];

  constructor(private readonly options: ConversationOptions) {}

  get messages(): ModelMessage[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  push(message: ModelMessage): void {
    this.list.push(message);
    this.options.transcript.append({ type: "message", message });
  }

  /** Forget everything (`/clear`); the transcript keeps it. */
  clear(): void {
    this.list = [];
    this.options.transcript.append({ type: "clear" });
  }

  /** Continue a conversation read back from another transcript; recorded whole here, so this one stands alone. */
  restore(messages: readonly ModelMessage[], from: string): void {
    this.list = [...messages];
    this.options.transcript.append({ type: "resume", from, conversation: this.list });
  }

  /** Take out everything from `index` on (a task that cannot fit); recorded as the conversation that goes on. */
  dropFrom(index: number): number {
    const dropped = this.list.length - index;
    this.list = this.list.slice(0, index);
    this.options.transcript.append({ type: "compaction", reason: "dropped", conversation: this.list });
    return dropped;
  }

  /** Estimated share of the window the next request takes, with `overheadTokens` (briefing, tools) besides. */
  fill(overheadTokens: number): number {
    return (estimateTokens(this.list) + overheadTokens) / this.options.contextWindow;
  }

  /** Compact before a request when it nears the window and there is something older to compact. */
  async fit(overheadTokens: number, signal: AbortSignal): Promise<void> {
    if (this.list.length < 2 || this.fill(overheadTokens) < COMPACT_AT) return;
    await this.compact("auto", signal);
  }

  /** Replace the older turns with a summary; reports what happened as a `compaction` event. */
  async compact(reason: CompactionReason, signal: AbortSignal, focus?: string): Promise<Compaction> {
    const done = await compactConversation(this.list, {
      model: this.options.model,
      contextWindow: this.options.contextWindow,
      signal,
      maxRetries: this.options.maxRetries,
      transcript: this.options.transcript.file,
      ...(focus ? { focus } : {}),
    });
    if (done.kind !== "nothing") {
      this.list = done.messages;
      this.options.transcript.append({
        type: "compaction",
        reason,
        outcome: done.kind,
        replaced: done.replaced,
        conversation: this.list,
      });
    }
    this.options.emit({
      type: "compaction",
      reason,
      outcome: done.kind,
      ...(done.kind === "nothing" ? { detail: done.reason } : { replaced: done.replaced, kept: done.kept }),
      ...(done.kind === "dropped" && done.error ? { detail: done.error } : {}),
    });
    return done;
  }
}
