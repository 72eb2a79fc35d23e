/** What a stdio server process is started with, and how its end is told. */
import type { InheritedEnv } from "./child-env";

export interface ProcessStdioOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** How much of the user's environment the process inherits (all of it by default). */
  readonly inheritEnv?: InheritedEnv | undefined;
  readonly cwd?: string | undefined;
  /** Largest single message accepted on stdout. */
  readonly maxMessageBytes: number;
  /** After stdin is ended: how long to wait before SIGTERM, then before SIGKILL. */
  readonly closeGraceMs: number;
  readonly onStderr: (chunk: Buffer) => void;
  /** Called once the process exists, with its pid. */
  readonly onSpawn?: (pid: number) => void;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Why a still-running server's connection is unusable. */
export type PipeLoss = "stdout-closed" | "stdin-broken";
