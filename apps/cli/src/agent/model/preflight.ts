/**
 * A cheap check that the model API answers before the session starts:
 * `GET <base>/models` (both OpenAI-compatible servers and Anthropic serve it).
 * Unreachable hosts and rejected keys become one clear sentence instead of a
 * stack trace in the middle of the first turn. Any other answer (even a 404
 * from a server without a model list) proves the host is there.
 */
import type { ModelConfig } from "./provider-config";
import { AgentSetupError } from "../setup-error";

export interface PreflightResult {
  /** Model ids the server listed, when it lists any. */
  readonly models: readonly string[] | undefined;
  readonly ms: number;
}

export function authHeaders(config: ModelConfig): Record<string, string> {
  if (config.provider === "anthropic") {
    const headers: Record<string, string> = { "anthropic-version": "2023-06-01" };
    if (config.apiKey !== undefined)
      headers[config.bearer ? "authorization" : "x-api-key"] = config.bearer
        ? `Bearer ${config.apiKey}`
        : config.apiKey;
    return headers;
  }
  return config.apiKey !== undefined ? { authorization: `Bearer ${config.apiKey}` } : {};
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "no answer in time";
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export async function preflight(
  config: ModelConfig,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PreflightResult> {
  const started = Date.now();
  const label = config.provider === "openai" ? "OpenAI-compatible API" : "Anthropic API";
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/models`, {
      headers: { accept: "application/json", ...authHeaders(config) },
      signal,
    });
  } catch (error) {
    const hint = config.official ? "check your network connection" : "is the server running? check --base-url";
    throw new AgentSetupError(
      "unreachable",
      `cannot reach the ${label} at ${config.baseUrl} (${networkReason(error)}): ${hint}`,
      1,
      { cause: error },
    );
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => undefined);
    const why =
      config.apiKey === undefined
        ? `it needs an API key: set ${config.keyVariable}`
        : `the key in ${config.keyVariable} was refused`;
    throw new AgentSetupError("rejected", `the ${label} at ${config.baseUrl} answered ${response.status}: ${why}`, 1);
  }
  let models: string[] | undefined;
  if (response.ok) {
    try {
      const body = (await response.json()) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
      const rows = body.data ?? [];
      models = rows.map((row) => row.id).filter((id): id is string => typeof id === "string");
    } catch {
      models = undefined;
    }
  } else {
    await response.body?.cancel().catch(() => undefined);
  }
  return { models, ms: Date.now() - started };
}

/** Pick the model when none was named: a server offering exactly one decides. */
export function chooseModel(config: ModelConfig, listed: readonly string[] | undefined): string {
  if (config.model !== undefined) return config.model;
  if (listed && listed.length === 1) return listed[0]!;
  const offer =
    listed && listed.length > 0
      ? ` (the server offers: ${listed.slice(0, 8).join(", ")}${listed.length > 8 ? ", …" : ""})`
      : "";
  throw new AgentSetupError(
    "no-model",
    `no model chosen for ${config.baseUrl}: pass --model or set INDUSR_MODEL${offer}`,
    2,
  );
}
