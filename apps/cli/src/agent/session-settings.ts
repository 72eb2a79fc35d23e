/**
 * What every session of a prepared run shares, whether it answers one task
 * (`-p`) or a whole interactive session: model, deck, places and limits.
 */
import { createLanguageModel } from "./language-model";
import type { Prepared } from "./run-agent";

export function sessionSettings(prepared: Prepared) {
  return {
    model: createLanguageModel(prepared.config, prepared.modelId),
    provider: prepared.config.provider,
    modelId: prepared.modelId,
    baseUrl: prepared.config.baseUrl,
    deck: prepared.deck,
    cwd: prepared.cwd,
    sessionDir: prepared.sessionDir,
    maxTurns: prepared.maxTurns,
    maxRetries: prepared.config.maxRetries,
    ...(prepared.config.maxOutputTokens !== undefined ? { maxOutputTokens: prepared.config.maxOutputTokens } : {}),
    ...(prepared.resultMaxChars !== undefined ? { resultMaxChars: prepared.resultMaxChars } : {}),
  };
}
