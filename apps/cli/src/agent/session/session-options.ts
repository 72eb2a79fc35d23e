/**
 * What a session is built from (`SessionOptions`) and what a task ends with
 * (`TaskResult`), apart from the session itself so callers and sub-agents
 * import the shapes without the loop.
 */
import type { LanguageModel } from "ai";
import type { BootedDeck } from "../../boot/boot-types";
import type { EventSink, ResultSubtype, UsageTotals } from "../events";
import type { PermissionGate } from "./permission";
import type { PlanApprover } from "./plan-mode";
import type { InstructionFile } from "./project-instructions";
import type { BackgroundTasks } from "./background-tasks";

/** What of a booted deck the session uses (tests hand in their own). */
export type SessionDeck = Pick<BootedDeck, "box" | "origin" | "servers" | "diagnostics" | "onServerChanged"> & {
  readonly mcp?: BootedDeck["mcp"];
  readonly deferred?: BootedDeck["deferred"];
};

export interface SessionOptions {
  readonly model: LanguageModel;
  readonly provider: string;
  readonly modelId: string;
  readonly baseUrl: string;
  readonly deck: SessionDeck;
  readonly cwd: string;
  readonly sessionDir: string;
  readonly gate: PermissionGate;
  /** Asks the user to approve a plan; absent when nobody can answer. */
  readonly approvePlan?: PlanApprover;
  /** With no one to ask: approve plans automatically (`--yes`, or `--allow exit_plan_mode`). */
  readonly autoApprovePlans: boolean;
  readonly maxTurns: number;
  readonly maxRetries: number;
  readonly maxOutputTokens?: number;
  readonly resultMaxChars?: number;
  readonly emit: EventSink;
  readonly sessionId?: string;
  /** How long a cancelled tool may take to settle before the session moves on. */
  readonly cancelGraceMs?: number;
  /** A `task` sub-agent's session (its own briefing opening). */
  readonly role?: "main" | "sub-agent";
  /** Opens a checkpoint per prompt, so `/rewind` can undo its file changes. */
  readonly checkpoints?: { begin(prompt: string): string };
  /** Folders besides `cwd` the user added (the client host's roots), read at every turn. */
  readonly addedDirs?: () => readonly string[];
  /** Notes for the model about server requests answered during a call to this tool (the client host's). */
  readonly hostNotes?: (toolName: string) => readonly string[];
  /** Where long task calls go on (interactive sessions): their results come with the next prompt. */
  readonly background?: BackgroundTasks;
  /** `AGENTS.md` / `CLAUDE.md` files, in the briefing with their source named. */
  readonly instructions?: readonly InstructionFile[];
  /** The model's context window in tokens (default: the provider's usual one); the conversation is compacted to stay within it. */
  readonly contextWindow?: number;
}

export interface TaskResult {
  readonly subtype: ResultSubtype;
  readonly text: string;
  readonly error?: string;
  readonly turns: number;
  readonly usage: UsageTotals;
}
