/**
 * One model turn: a `streamText` call with every tool declared but none given
 * an `execute`, so the SDK stops at the model's tool calls and hands them
 * back. Text and reasoning are forwarded as they arrive; tool calls are
 * collected; the SDK's own answers to invalid calls (unknown tool, bad input)
 * are kept apart so the session does not run them.
 */
import { streamText, type LanguageModel, type ModelMessage, type SystemModelMessage, type ToolSet } from "ai";
import type { ToolCall } from "@indus/contract";
import type { EventSink, UsageTotals } from "./events";

export interface TurnRequest {
  readonly model: LanguageModel;
  readonly system: string | SystemModelMessage;
  readonly messages: ModelMessage[];
  readonly tools: ToolSet;
  readonly signal: AbortSignal;
  readonly maxRetries: number;
  readonly maxOutputTokens?: number;
}

export interface StreamedTurn {
  readonly text: string;
  readonly calls: readonly ToolCall[];
  /** Calls the SDK already answered (unknown tool, unparseable input): id -> error text. */
  readonly answered: ReadonlyMap<string, string>;
  readonly finishReason: string;
  readonly usage: Partial<UsageTotals>;
  /** Set when the request or the stream failed. */
  readonly error?: { readonly cause: unknown };
  /** The assistant (and SDK tool) messages of the turn; only valid when there was no error. */
  responseMessages(): Promise<ModelMessage[]>;
}

function usageOf(usage: {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
  cachedInputTokens?: number | undefined;
  reasoningTokens?: number | undefined;
}): Partial<UsageTotals> {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    totalTokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0,
  };
}

export async function streamTurn(
  request: TurnRequest,
  turn: number,
  emit: EventSink,
  isReadOnly: (call: ToolCall) => boolean,
): Promise<StreamedTurn> {
  let text = "";
  let streamError: { cause: unknown } | undefined;
  let finishReason = "unknown";
  let usage: Partial<UsageTotals> = {};
  const calls: ToolCall[] = [];
  const answered = new Map<string, string>();

  const stream = streamText({
    model: request.model,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    abortSignal: request.signal,
    maxRetries: request.maxRetries,
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    onError: ({ error }) => {
      streamError ??= { cause: error };
    },
  });

  try {
    for await (const part of stream.fullStream) {
      switch (part.type) {
        case "text-delta":
          text += part.text;
          emit({ type: "text_delta", turn, text: part.text });
          break;
        case "reasoning-delta":
          emit({ type: "reasoning_delta", turn, text: part.text });
          break;
        case "tool-call": {
          const call: ToolCall = { id: part.toolCallId, name: part.toolName, input: part.input };
          calls.push(call);
          emit({
            type: "tool_call",
            turn,
            id: call.id,
            name: call.name,
            input: call.input,
            readOnly: isReadOnly(call),
          });
          break;
        }
        case "tool-error":
          answered.set(part.toolCallId, String(part.error));
          break;
        case "finish-step":
          finishReason = part.finishReason;
          usage = usageOf(part.usage);
          break;
        case "error":
          streamError ??= { cause: part.error };
          break;
        default:
          break;
      }
    }
  } catch (error) {
    streamError ??= { cause: error };
  }

  return {
    text,
    calls,
    answered,
    finishReason,
    usage,
    ...(streamError ? { error: streamError } : {}),
    responseMessages: async () => [...(await stream.response).messages] as ModelMessage[],
  };
}
