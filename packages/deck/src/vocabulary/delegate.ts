/** The sub-agent seam the `task` card delegates through. */
export interface DelegateRequest {
  readonly objective: string;
  readonly agent?: string;
  readonly context?: string;
}

export interface DelegateAnswer {
  readonly ok: boolean;
  readonly output: string;
}

/** Runs a sub-agent for the `task` card. */
export interface DelegateRunner {
  listAgents(): readonly { readonly name: string; readonly description: string }[];
  run(request: DelegateRequest, signal: AbortSignal): Promise<DelegateAnswer>;
}
