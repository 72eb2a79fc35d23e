/**
 * A problem found before the agent's first turn (no key, unreachable
 * provider, unusable settings). It carries the exit code so the command can
 * stop cleanly without a stack trace.
 */
export type SetupErrorKind = "no-key" | "no-model" | "unreachable" | "rejected" | "bad-config" | "no-prompt";

export class AgentSetupError extends Error {
  override readonly name = "AgentSetupError";

  constructor(
    readonly kind: SetupErrorKind,
    message: string,
    readonly exitCode: number = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isAgentSetupError(value: unknown): value is AgentSetupError {
  return value instanceof AgentSetupError || (value instanceof Error && value.name === "AgentSetupError");
}
