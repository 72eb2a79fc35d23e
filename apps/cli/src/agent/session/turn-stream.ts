/**
 * One model turn, straight on the provider's `doStream`. `streamText` would
 * re-validate the whole conversation with zod on every call (its cost grows
 * with the session and dominated the agent's per-turn overhead), and this
 * session never lets the SDK run tools anyway. The SDK's own building blocks
 * (`ai/internal`) still convert the prompt, declare the tools and retry with
 * `retry-after`; tool calls are collected, unknown tools and unparseable
 * input are answered here the way `streamText` answers them.
 */
import { jsonSchema, tool, type LanguageModel, type ModelMessage, type SystemModelMessage, type ToolSet } from "ai";
import { convertToLanguageModelPrompt, prepareRetries, prepareToolsAndToolChoice } from "ai/internal";
import type { ToolCall, ToolDescriptor } from "@indus/contract";
import type { EventSink, UsageTotals } from "../events";
import { modelMayCall } from "../../apps/app-views";

/** The AI SDK tool set: schemas only, no `execute`, so the session runs every call. */
export function toModelTools(descriptors: readonly ToolDescriptor[]): ToolSet {
  const tools: ToolSet = {};
  // A tool whose MCP App view keeps it for the app alone is not the model's (SEP-1865 visibility).
  for (const descriptor of descriptors.filter(modelMayCall)) {
    tools[descriptor.name] = tool({
      description: descriptor.description,
      inputSchema: jsonSchema(descriptor.parameters as Parameters<typeof jsonSchema>[0]),
    });
  }
  return tools;
}

/**
 * The briefing and the conversation for one request. For Anthropic, two
 * cache breakpoints (after the tools and briefing, and at the newest
 * message) let every turn reuse the prefix the previous turn paid for.
 */
export function promptFor(
  provider: string,
  briefing: string,
  conversation: readonly ModelMessage[],
): { system: string | SystemModelMessage; messages: ModelMessage[] } {
  if (provider !== "anthropic") return { system: briefing, messages: conversation as ModelMessage[] };
  const cache = { anthropic: { cacheControl: { type: "ephemeral" } } };
  const messages = [...conversation];
  const last = messages.at(-1);
  if (last)
    messages[messages.length - 1] = {
      ...last,
      providerOptions: { ...last.providerOptions, ...cache },
    };
  return { system: { role: "system", content: briefing, providerOptions: cache }, messages };
}

export interface TurnRequest {
  readonly model: LanguageModel;
  /** None for a server's sampling request that gave no system prompt. */
  readonly system?: string | SystemModelMessage;
  readonly messages: ModelMessage[];
  readonly tools: ToolSet;
  readonly signal: AbortSignal;
  readonly maxRetries: number;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
}

export interface StreamedTurn {
  readonly text: string;
  readonly calls: readonly ToolCall[];
  /** Calls answered here (unknown tool, unparseable input): id -> error text. */
  readonly answered: ReadonlyMap<string, string>;
  readonly finishReason: string;
  readonly usage: Partial<UsageTotals>;
  /** Set when the request or the stream failed. */
  readonly error?: { readonly cause: unknown };
  /** The assistant message of the turn (and a tool message answering invalid calls); only valid without an error. */
  responseMessages(): Promise<ModelMessage[]>;
}

/** The slice of a LanguageModelV3 stream part this session reads. */
type StreamPart =
  | { type: "text-delta"; delta: string }
  | { type: "reasoning-delta"; delta: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: string }
  | {
      type: "finish";
      finishReason: { unified: string } | string;
      usage: {
        inputTokens: { total?: number; cacheRead?: number };
        outputTokens: { total?: number; reasoning?: number };
      };
    }
  | { type: "error"; error: unknown }
  | { type: string };

interface StreamingModel {
  readonly supportedUrls?: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  doStream(options: Record<string, unknown>): PromiseLike<{ stream: ReadableStream<StreamPart> }>;
}

function usageOf(part: Extract<StreamPart, { type: "finish" }>): Partial<UsageTotals> {
  const input = part.usage.inputTokens.total ?? 0;
  const output = part.usage.outputTokens.total ?? 0;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
    cachedInputTokens: part.usage.inputTokens.cacheRead ?? 0,
    reasoningTokens: part.usage.outputTokens.reasoning ?? 0,
  };
}

type AssistantPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };

async function openStream(request: TurnRequest): Promise<ReadableStream<StreamPart>> {
  const model = request.model as unknown as StreamingModel;
  const prompt = await convertToLanguageModelPrompt({
    prompt: { ...(request.system !== undefined ? { system: request.system } : {}), messages: request.messages },
    supportedUrls: (await model.supportedUrls) ?? {},
    download: undefined,
    abortSignal: request.signal,
  });
  const { tools, toolChoice } = await prepareToolsAndToolChoice({
    tools: request.tools,
    toolChoice: undefined,
    activeTools: undefined,
  });
  const { retry } = prepareRetries({ maxRetries: request.maxRetries, abortSignal: request.signal });
  const result = await retry(() =>
    Promise.resolve(
      model.doStream({
        prompt,
        tools,
        toolChoice,
        abortSignal: request.signal,
        ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences !== undefined ? { stopSequences: [...request.stopSequences] } : {}),
      }),
    ),
  );
  return result.stream;
}

export async function streamTurn(
  request: TurnRequest,
  turn: number,
  emit: EventSink,
  isReadOnly: (call: ToolCall) => boolean,
): Promise<StreamedTurn> {
  const collected = new TurnCollector(request.tools, { turn, emit, isReadOnly });
  try {
    const reader = (await openStream(request)).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      collected.onPart(value);
    }
  } catch (cause) {
    collected.error ??= { cause };
  }
  return collected.result();
}

/** Where a turn's parts are reported as they arrive. */
interface TurnSink {
  readonly turn: number;
  readonly emit: EventSink;
  readonly isReadOnly: (call: ToolCall) => boolean;
}

/** A turn's stream parts gathered into its text, its calls, its assistant message and how it ended. */
class TurnCollector {
  error: { cause: unknown } | undefined;
  private text = "";
  private reasoning = "";
  private finishReason = "unknown";
  private usage: Partial<UsageTotals> = {};
  private readonly calls: ToolCall[] = [];
  private readonly answered = new Map<string, string>();
  private readonly parts: AssistantPart[] = [];
  private readonly invalid: { toolCallId: string; toolName: string; message: string }[] = [];

  constructor(
    private readonly tools: ToolSet,
    private readonly sink: TurnSink,
  ) {}

  onPart(part: StreamPart): void {
    const { turn, emit } = this.sink;
    switch (part.type) {
      case "text-delta": {
        const delta = (part as { delta: string }).delta;
        this.text += delta;
        const last = this.parts.at(-1);
        if (last?.type === "text") last.text += delta;
        else this.parts.push({ type: "text", text: delta });
        emit({ type: "text_delta", turn, text: delta });
        break;
      }
      case "reasoning-delta": {
        const delta = (part as { delta: string }).delta;
        this.reasoning += delta;
        emit({ type: "reasoning_delta", turn, text: delta });
        break;
      }
      case "tool-call":
        this.toolCall(part as Extract<StreamPart, { type: "tool-call" }>);
        break;
      case "finish": {
        const finish = part as Extract<StreamPart, { type: "finish" }>;
        this.finishReason = typeof finish.finishReason === "string" ? finish.finishReason : finish.finishReason.unified;
        this.usage = usageOf(finish);
        break;
      }
      case "error":
        this.error ??= { cause: (part as { error: unknown }).error };
        break;
      default:
        break;
    }
  }

  /** A call the model made: unknown tools and unparseable input are answered here, as `streamText` answers them. */
  private toolCall({ toolCallId, toolName, input }: Extract<StreamPart, { type: "tool-call" }>): void {
    let parsed: unknown;
    let problem: string | undefined;
    if (!Object.hasOwn(this.tools, toolName)) {
      problem = `Model tried to call unavailable tool '${toolName}'. Available tools: ${Object.keys(this.tools).join(", ")}.`;
    } else {
      try {
        parsed = input.trim() === "" ? {} : JSON.parse(input);
      } catch (cause) {
        problem = `Invalid input for tool ${toolName}: JSON parsing failed: Text: ${input}.\nError message: ${(cause as Error).message}`;
      }
    }
    const call: ToolCall = { id: toolCallId, name: toolName, input: problem ? input : parsed };
    this.calls.push(call);
    this.parts.push({ type: "tool-call", toolCallId, toolName, input: problem ? input : parsed });
    const { turn, emit, isReadOnly } = this.sink;
    emit({ type: "tool_call", turn, id: call.id, name: call.name, input: call.input, readOnly: isReadOnly(call) });
    if (problem) {
      this.answered.set(toolCallId, problem);
      this.invalid.push({ toolCallId, toolName, message: problem });
    }
  }

  result(): StreamedTurn {
    const { text, calls, answered, finishReason, usage, error } = this;
    return {
      text,
      calls,
      answered,
      finishReason,
      usage,
      ...(error ? { error } : {}),
      responseMessages: () => Promise.resolve(this.responseMessages()),
    };
  }

  /** The assistant message of the turn, and a tool message answering the invalid calls. */
  private responseMessages(): ModelMessage[] {
    const content = [
      ...(this.reasoning.length > 0 ? [{ type: "reasoning" as const, text: this.reasoning }] : []),
      ...this.parts,
    ];
    const out: ModelMessage[] = [{ role: "assistant", content }];
    if (this.invalid.length > 0)
      out.push({
        role: "tool",
        content: this.invalid.map((i) => ({
          type: "tool-result" as const,
          toolCallId: i.toolCallId,
          toolName: i.toolName,
          output: { type: "error-text" as const, value: i.message },
        })),
      });
    return out;
  }
}
