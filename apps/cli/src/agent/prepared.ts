/**
 * What a prepared agent run is made of: the flags it reads, its IO, and the
 * model, deck and limits every session of the run shares. Its own module so
 * `run-agent.ts` and `interactive.ts` both import it and neither imports the other back.
 */
import type { BootOptions } from "../boot/boot";
import type { BootedDeck } from "../boot/boot-types";
import type { SessionCheckpoints } from "./session/checkpoints";
import type { ModelConfig } from "./model/provider-config";
import type { SubAgentRunner } from "./sub-agent";
import type { AgentClientHost } from "./host/agent-client-host";
import type { LoadedInstructions } from "./session/project-instructions";
import type { ProjectPermissions } from "./session/project-permissions";

export type { BootOptions };

/** The root flags the agent reads (parsed by commander from the flag table). */
export interface AgentFlags {
  readonly mcp?: readonly string[];
  /** `--tools` names; commander may instead set `false` here for `--no-tools`. */
  readonly tools?: readonly string[] | false;
  readonly noTools?: boolean;
  readonly profile?: string;
  readonly cwd?: string;
  readonly logDir?: string;
  readonly sessionDir?: string;
  readonly print?: string;
  readonly maxTurns?: number;
  readonly mcpToolBudget?: number;
  readonly allow?: readonly string[];
  readonly yes?: boolean;
  /** `--continue`: the latest conversation started in this folder. */
  readonly continue?: boolean;
  /** `--resume [id]`: that session, or (`true`) one picked on the terminal. */
  readonly resume?: string | boolean;
  /** `--add-dir`: folders besides the cwd, the servers' roots. */
  readonly addDir?: readonly string[];
  /** `--allow-sampling`: servers whose sampling requests need no approval. */
  readonly allowSampling?: readonly string[];
  /** `--apps`: `browser` opens each MCP App view as its tool answers (default `text`: on `/app`). */
  readonly apps?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly subagentModel?: string;
  readonly baseUrl?: string;
  readonly outputFormat?: string;
}

export type BootDeck = (options: BootOptions) => Promise<BootedDeck>;

export interface AgentIo {
  readonly bootDeck: BootDeck;
  readonly stdin: NodeJS.ReadStream | NodeJS.ReadableStream;
  readonly stdout: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Process signals; tests leave it out. */
  readonly signals?: Pick<NodeJS.Process, "on" | "off">;
}

export interface Prepared {
  readonly config: ModelConfig;
  readonly modelId: string;
  readonly deck: BootedDeck;
  readonly sessionDir: string;
  readonly cwd: string;
  readonly maxTurns: number;
  readonly allow: readonly string[];
  readonly resultMaxChars?: number;
  /** Runs `task` sub-agents; bound to the session once it exists. */
  readonly delegate: SubAgentRunner;
  readonly subagentModel?: string;
  /** What `write`/`edit` changed, per prompt, for `/rewind`. */
  readonly checkpoints: SessionCheckpoints;
  /** The user's and the project's `AGENTS.md` / `CLAUDE.md`, for the briefing and `/status`. */
  readonly instructions: LoadedInstructions;
  /** The model's context window in tokens (settings `contextWindow`, else the provider's usual one). */
  readonly contextWindow: number;
  /** "Always allow" answers saved for this project. */
  readonly permissions: ProjectPermissions;
  /** Answers the mounted servers' elicitation, sampling and roots requests; bound to the session once it exists. */
  readonly host: AgentClientHost;
}
