/**
 * Which model API to talk to, resolved once from flags, environment and
 * settings (in that order of precedence). A key is required only for the
 * official hosts: a custom base URL (Ollama, vLLM, LM Studio, llama.cpp, a
 * proxy) may need none, and the preflight reports a rejected request clearly.
 */
import { AgentSetupError } from "../setup-error";
import type { AgentSettings } from "../settings";

export type ProviderKind = "openai" | "anthropic";

export interface ModelConfig {
  readonly provider: ProviderKind;
  /** Undefined until chosen: a local server listing one model can supply it. */
  readonly model: string | undefined;
  /** Always ends in the API version segment, e.g. `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  /** Where the key came from (a variable name), for error messages. */
  readonly keyVariable: string;
  /** Anthropic takes `x-api-key`, or a bearer token from `ANTHROPIC_AUTH_TOKEN`. */
  readonly bearer: boolean;
  /** True when the base URL is the provider's own public API. */
  readonly official: boolean;
  readonly maxOutputTokens: number | undefined;
  readonly maxRetries: number;
}

export interface ModelFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
}

export const OFFICIAL_BASE_URL: Record<ProviderKind, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
};

export const DEFAULT_MODEL: Record<ProviderKind, string> = {
  openai: "gpt-4.1-mini",
  anthropic: "claude-sonnet-4-5",
};

const KEY_VARIABLE: Record<ProviderKind, string> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" };
const BASE_URL_VARIABLE: Record<ProviderKind, string> = { openai: "OPENAI_BASE_URL", anthropic: "ANTHROPIC_BASE_URL" };

const nonEmpty = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim().length > 0 ? value.trim() : undefined;

/**
 * `http://host:11434` and `http://host:11434/` become `http://host:11434/v1`;
 * any explicit path is kept as given (minus a trailing slash).
 */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AgentSetupError(
      "bad-config",
      `the base URL "${raw}" is not a URL (expected e.g. http://127.0.0.1:11434/v1)`,
      2,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AgentSetupError("bad-config", `the base URL "${raw}" must start with http:// or https://`, 2);
  }
  const pathname = url.pathname.replace(/\/+$/, "");
  url.pathname = pathname.length === 0 ? "/v1" : pathname;
  return url.toString().replace(/\/+$/, "");
}

function inferProvider(flags: ModelFlags, env: NodeJS.ProcessEnv, settings: AgentSettings): ProviderKind {
  const model = nonEmpty(flags.model) ?? nonEmpty(env.INDUSR_MODEL) ?? settings.model;
  if (model !== undefined && /^claude/i.test(model)) return "anthropic";
  const openAiHints =
    nonEmpty(env.OPENAI_API_KEY) ?? nonEmpty(env.OPENAI_BASE_URL) ?? nonEmpty(flags.baseUrl) ?? settings.baseUrl;
  if (
    openAiHints === undefined &&
    (nonEmpty(env.ANTHROPIC_API_KEY) ?? nonEmpty(env.ANTHROPIC_AUTH_TOKEN)) !== undefined
  )
    return "anthropic";
  return "openai";
}

export function resolveModelConfig(flags: ModelFlags, env: NodeJS.ProcessEnv, settings: AgentSettings): ModelConfig {
  const provider = providerOf(flags, env, settings);
  const rawBase =
    nonEmpty(flags.baseUrl) ??
    nonEmpty(env.INDUSR_BASE_URL) ??
    nonEmpty(env[BASE_URL_VARIABLE[provider]]) ??
    settings.baseUrl;
  const baseUrl = normaliseBaseUrl(rawBase ?? OFFICIAL_BASE_URL[provider]);
  const official = new URL(baseUrl).host === new URL(OFFICIAL_BASE_URL[provider]).host;
  const { keyVariable, apiKey } = apiKeyOf(provider, env, settings);
  if (apiKey === undefined && official) {
    throw new AgentSetupError(
      "no-key",
      provider === "openai"
        ? `no API key: set ${keyVariable} for ${baseUrl}, or point --base-url at a local OpenAI-compatible server (Ollama: http://127.0.0.1:11434/v1)`
        : `no API key: set ${keyVariable} (or ANTHROPIC_AUTH_TOKEN) for ${baseUrl}`,
      1,
    );
  }
  const model =
    nonEmpty(flags.model) ??
    nonEmpty(env.INDUSR_MODEL) ??
    settings.model ??
    (official ? DEFAULT_MODEL[provider] : undefined);
  return {
    provider,
    model,
    baseUrl,
    apiKey,
    keyVariable,
    bearer: provider === "openai" || keyVariable === "ANTHROPIC_AUTH_TOKEN",
    official,
    maxOutputTokens: settings.maxOutputTokens,
    maxRetries: settings.maxRetries ?? 2,
  };
}

/** The provider named by flag, environment or settings, else inferred from what is set. */
function providerOf(flags: ModelFlags, env: NodeJS.ProcessEnv, settings: AgentSettings): ProviderKind {
  const named = nonEmpty(flags.provider) ?? nonEmpty(env.INDUSR_PROVIDER) ?? settings.provider;
  if (named !== undefined && named !== "openai" && named !== "anthropic") {
    throw new AgentSetupError(
      "bad-config",
      `unknown provider "${named}" (INDUSR_PROVIDER): use openai or anthropic`,
      2,
    );
  }
  return named ?? inferProvider(flags, env, settings);
}

/** Which variable holds the key, and its value (Anthropic's `ANTHROPIC_AUTH_TOKEN` when no key is set). */
function apiKeyOf(
  provider: ProviderKind,
  env: NodeJS.ProcessEnv,
  settings: AgentSettings,
): { keyVariable: string; apiKey: string | undefined } {
  const keyVariable =
    settings.apiKeyEnv ?? (nonEmpty(env.INDUSR_API_KEY) !== undefined ? "INDUSR_API_KEY" : KEY_VARIABLE[provider]);
  const apiKey = nonEmpty(env[keyVariable]);
  const token = nonEmpty(env.ANTHROPIC_AUTH_TOKEN);
  if (apiKey === undefined && provider === "anthropic" && settings.apiKeyEnv === undefined && token !== undefined)
    return { keyVariable: "ANTHROPIC_AUTH_TOKEN", apiKey: token };
  return { keyVariable, apiKey };
}

/** A one-line description for banners and session headers. */
export function describeModel(config: ModelConfig): string {
  return `${config.provider === "openai" ? "openai-compatible" : "anthropic"} · ${config.model ?? "?"} · ${config.baseUrl}`;
}
