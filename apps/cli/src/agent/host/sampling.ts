/**
 * A server's `sampling/createMessage` answered by the session's own model:
 * the MCP messages as AI SDK messages, one streamed request with the server's
 * `maxTokens` as the output limit, and the `CreateMessageResult` back. The
 * session declares plain sampling (no `tools`), so tool-use content is
 * refused rather than half-answered.
 */
import type { LanguageModel, ModelMessage } from "ai";
import type { JsonObject, JsonValue } from "@indus/contract";
import type { UsageTotals } from "../events";
import { streamTurn } from "../session/turn-stream";

export interface SamplingRequest {
  readonly system?: string;
  readonly messages: ModelMessage[];
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
}

export interface SampledAnswer {
  /** The `CreateMessageResult` for the server. */
  readonly result: JsonObject;
  readonly text: string;
  readonly usage: Partial<UsageTotals>;
}

export interface SamplingModel {
  readonly model: LanguageModel;
  readonly modelId: string;
  readonly maxRetries: number;
}

type Part = { type: "text"; text: string } | { type: "image"; image: string; mediaType?: string };

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One MCP content block as a model message part; a string saying why when it cannot be one. */
function partOf(block: JsonValue): Part | string {
  if (!isObject(block)) return "a content block that is not an object";
  switch (block.type) {
    case "text":
      return { type: "text", text: typeof block.text === "string" ? block.text : "" };
    case "image":
      if (typeof block.data !== "string") return "an image without data";
      return {
        type: "image",
        image: block.data,
        ...(typeof block.mimeType === "string" ? { mediaType: block.mimeType } : {}),
      };
    case "audio":
      return { type: "text", text: "[audio content omitted: the session's model takes no audio]" };
    default:
      return `content of type ${JSON.stringify(block.type ?? null)} (this client offers sampling without tools)`;
  }
}

/** The request as the model will get it, or why it cannot be answered. */
export function samplingRequest(params: JsonObject): SamplingRequest | { readonly error: string } {
  const raw = Array.isArray(params.messages) ? params.messages : [];
  if (raw.length === 0) return { error: "the request has no messages" };
  const messages: ModelMessage[] = [];
  for (const message of raw) {
    if (!isObject(message)) return { error: "a message that is not an object" };
    const blocks = Array.isArray(message.content) ? message.content : [message.content ?? null];
    const parts: Part[] = [];
    for (const block of blocks) {
      const part = partOf(block);
      if (typeof part === "string") return { error: `the request holds ${part}` };
      parts.push(part);
    }
    if (message.role === "assistant") {
      const texts = parts.map((p) => (p.type === "text" ? p.text : "[image]"));
      messages.push({ role: "assistant", content: [{ type: "text", text: texts.join("\n") }] });
    } else {
      messages.push({ role: "user", content: parts });
    }
  }
  const maxTokens = typeof params.maxTokens === "number" && params.maxTokens > 0 ? Math.floor(params.maxTokens) : 0;
  if (maxTokens === 0) return { error: "the request has no positive maxTokens" };
  const stops = Array.isArray(params.stopSequences)
    ? params.stopSequences.filter((s): s is string => typeof s === "string")
    : [];
  return {
    ...(typeof params.systemPrompt === "string" && params.systemPrompt.length > 0
      ? { system: params.systemPrompt }
      : {}),
    messages,
    maxTokens,
    ...(typeof params.temperature === "number" ? { temperature: params.temperature } : {}),
    ...(stops.length > 0 ? { stopSequences: stops } : {}),
  };
}

/** MCP's stop reasons for the provider's finish reasons. */
function stopReasonOf(finishReason: string): string {
  switch (finishReason) {
    case "length":
      return "maxTokens";
    case "stop":
      return "endTurn";
    default:
      return finishReason;
  }
}

/** Ask the model once; rejects with the provider's error. */
export async function sample(
  using: SamplingModel,
  request: SamplingRequest,
  signal: AbortSignal,
): Promise<SampledAnswer> {
  const streamed = await streamTurn(
    {
      model: using.model,
      ...(request.system !== undefined ? { system: request.system } : {}),
      messages: request.messages,
      tools: {},
      signal,
      maxRetries: using.maxRetries,
      maxOutputTokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.stopSequences !== undefined ? { stopSequences: request.stopSequences } : {}),
    },
    0,
    () => undefined,
    () => true,
  );
  if (streamed.error) throw streamed.error.cause instanceof Error ? streamed.error.cause : new Error("model failed");
  return {
    result: {
      role: "assistant",
      content: { type: "text", text: streamed.text },
      model: using.modelId,
      stopReason: stopReasonOf(streamed.finishReason),
    },
    text: streamed.text,
    usage: streamed.usage,
  };
}

/** The request as the user reviews it: who asks, the limits, the system prompt and each message. */
export function describeSampling(params: JsonObject, width: number): string[] {
  const clip = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  };
  const lines: string[] = [];
  if (typeof params.systemPrompt === "string" && params.systemPrompt.length > 0)
    lines.push(`system: ${clip(params.systemPrompt)}`);
  const messages = Array.isArray(params.messages) ? params.messages : [];
  if (messages.length > 6) lines.push(`(${messages.length - 6} earlier messages not shown)`);
  for (const message of messages.slice(-6)) {
    if (!isObject(message)) continue;
    const blocks = Array.isArray(message.content) ? message.content : [message.content ?? null];
    const text = blocks
      .map((b) =>
        isObject(b)
          ? b.type === "text" && typeof b.text === "string"
            ? b.text
            : `[${typeof b.type === "string" ? b.type : "content"}]`
          : "",
      )
      .join(" ");
    lines.push(`${message.role === "assistant" ? "assistant" : "user"}: ${clip(text)}`);
  }
  return lines;
}
