/** The world a deck tool runs in: cwd, cancellation, and the seams tests swap. */
import type { CallLogs, ClientHostHooks, ToolProgress } from "@indus/contract";

/** The file-system seam a tool reaches through its context (tests swap it). */
export interface FsSeam {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  stat(
    path: string,
  ): Promise<{ readonly size: number; readonly mtimeMs: number; readonly isDirectory: boolean } | null>;
  mkdir(path: string): Promise<void>;
}

/** How a tool starts a process: argv, cwd, env, and the abort signal. */
export interface ShellSpawnRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface ShellRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
}

/** The shell seam a tool reaches through its context. */
export interface ShellSeam {
  run(request: ShellSpawnRequest): Promise<ShellRunResult>;
}

/** The world a tool runs in, minted per dispatch. */
export interface ToolContext {
  readonly cwd: string;
  readonly signal: AbortSignal;
  readonly fs: FsSeam;
  readonly shell: ShellSeam;
  readonly onProgress?: (progress: ToolProgress) => void;
  /** The client the call runs for (a gateway's caller): a grafted MCP tool hands it to its server (`RunOptions.relayTo`). */
  readonly relayTo?: ClientHostHooks;
  /** Where the server's log messages caused by the call go (a gateway's caller; `RunOptions.logs`). */
  readonly logs?: CallLogs;
}
