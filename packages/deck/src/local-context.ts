/**
 * The OS-backed tool context: the real file system and a real shell. The deck
 * box mints one per deck; a host or a test can mint one to run a card directly.
 */
import fs from "node:fs/promises";
import type { ToolProgress } from "@indus/contract";
import type { FsSeam, ShellSeam, ToolContext } from "./vocabulary";
import { runProcessGroup } from "./spawn";

export const localFs: FsSeam = {
  async readFile(path) {
    return fs.readFile(path);
  },
  async writeFile(path, data) {
    await fs.writeFile(path, data);
  },
  async stat(path) {
    try {
      const s = await fs.stat(path);
      return { size: s.size, mtimeMs: s.mtimeMs, isDirectory: s.isDirectory() };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
        return null;
      }
      throw error;
    }
  },
  async mkdir(path) {
    await fs.mkdir(path, { recursive: true });
  },
};

/** Up to 16 MiB per stream is kept: the seam promises whole output, within reason. */
const SEAM_CAPTURE = 16 * 1024 * 1024;

export const localShell: ShellSeam = {
  async run(request) {
    const result = await runProcessGroup({
      command: request.command,
      args: request.args,
      cwd: request.cwd,
      ...(request.env === undefined ? {} : { env: request.env }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      headBytes: SEAM_CAPTURE,
      tailBytes: 0,
    });
    if (result.spawnError !== undefined) {
      return { stdout: "", stderr: result.spawnError, exitCode: 127, signal: null, timedOut: false };
    }
    return {
      stdout: result.stdout,
      stderr: result.stderr,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
    };
  },
};

const NEVER = new AbortController().signal;

/** A context over the local machine rooted at `cwd`. */
export function localToolContext(
  cwd: string,
  options: { signal?: AbortSignal; onProgress?: (progress: ToolProgress) => void } = {},
): ToolContext {
  return {
    cwd,
    signal: options.signal ?? NEVER,
    fs: localFs,
    shell: localShell,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  };
}
