/**
 * The AI SDK model for a resolved config. The SDK owns the wire formats
 * (SSE parsing, tool-call deltas, retries honouring `retry-after`); the agent
 * owns everything around them.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { ModelConfig } from "./provider-config";

// The SDK prints compatibility warnings to the console; the agent's own
// output channels (stdout events, stderr notes) must stay clean.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export function createLanguageModel(config: ModelConfig, model: string): LanguageModel {
  if (config.provider === "anthropic") {
    const anthropic = createAnthropic({
      baseURL: config.baseUrl,
      ...(config.apiKey === undefined
        ? { apiKey: "" }
        : config.bearer
          ? { authToken: config.apiKey }
          : { apiKey: config.apiKey }),
    });
    return anthropic(model);
  }
  const openai = createOpenAICompatible({
    name: config.official ? "openai" : "openai-compatible",
    baseURL: config.baseUrl,
    ...(config.apiKey !== undefined && { apiKey: config.apiKey }),
    includeUsage: true,
  });
  return openai.chatModel(model);
}
