/**
 * What every session of a prepared run shares, whether it answers one task
 * (`-p`) or a whole interactive session: model, deck, places and limits.
 */
import { hasDisplay, openBrowser } from "../auth/open-browser";
import type { EventSink } from "./events";
import type { TerminalPrompter } from "./host/terminal-form";
import { createLanguageModel } from "./model/language-model";
import type { PermissionGate } from "./session/permission";
import type { Prepared } from "./prepared";
import type { AgentSession } from "./session/session";

/** The MCP server a tool came from (the deck names grafted tools `<server>__<tool>`; the longest id wins). */
export function serverOfTool(prepared: Prepared): (tool: string) => string | undefined {
  return (tool) => {
    if (prepared.deck.origin(tool) !== "server") return undefined;
    const ids = prepared.deck.mcp.servers().map((s) => s.id);
    return ids.filter((id) => tool.startsWith(`${id}__`)).sort((a, b) => b.length - a.length)[0];
  };
}

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
    checkpoints: prepared.checkpoints,
    hostNotes: (toolName: string) => prepared.host.takeNotes(toolName),
    addedDirs: () => prepared.host.roots.folders().slice(1),
    instructions: prepared.instructions.files,
    contextWindow: prepared.contextWindow,
  };
}

/**
 * Let the session answer its servers' requests: forms and links on the
 * terminal when there is one, sampling by the session's model (its tokens
 * counted into the session's usage).
 */
export function bindHost(
  prepared: Prepared,
  session: AgentSession,
  how: {
    readonly terminal?: TerminalPrompter;
    readonly signal: () => AbortSignal;
    readonly emit: EventSink;
    readonly env: NodeJS.ProcessEnv;
  },
): void {
  prepared.host.bind({
    ...(how.terminal ? { terminal: how.terminal } : {}),
    signal: how.signal,
    // The transcript keeps who asked what and how it was answered (never a form's content).
    emit: (event) => {
      session.transcript.append({ ...event });
      how.emit(event);
    },
    model: {
      model: createLanguageModel(prepared.config, prepared.modelId),
      modelId: prepared.modelId,
      maxRetries: prepared.config.maxRetries,
    },
    countUsage: (usage) => session.countUsage(usage),
    openUrl: (url) => (hasDisplay(how.env) ? openBrowser(url) : Promise.resolve(false)),
  });
}

/** Let `task` start sub-agents from this session: same settings (or `--subagent-model`), same gate. */
export function bindSubAgents(prepared: Prepared, session: AgentSession, gate: PermissionGate, emit: EventSink): void {
  // A sub-agent's file changes belong to the parent's prompt: it opens no checkpoints of its own.
  const { checkpoints: _parentCheckpoints, ...settings } = sessionSettings(prepared);
  const modelId = prepared.subagentModel ?? prepared.modelId;
  prepared.delegate.bind({
    options: { ...settings, modelId, model: createLanguageModel(prepared.config, modelId) },
    deck: prepared.deck,
    gate,
    emit,
    parentId: session.id,
  });
}
