/**
 * `bash`: one shell command in the deck's working directory. The command leads
 * its own process group, so a timeout (2 minutes unless set) or a cancellation
 * kills it and everything it started. Output (stdout and stderr interleaved,
 * as a terminal shows them) keeps its head and tail when over the cap; the
 * exit code or the killing signal is always reported.
 */
import fs from "node:fs";
import type { Card, DeckContext } from "../vocabulary";
import { inputObject, optInt, optString, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { optionsOf } from "../options";
import { resolvePath } from "../paths";
import { errorResult } from "../results";
import { runProcessGroup } from "../spawn";
import { formatBytes } from "./text";

export const BASH_LIMITS = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  /** Output kept from the start and from the end of a long run. */
  headBytes: 16_000,
  tailBytes: 16_000,
  killGraceMs: 2_000,
} as const;

/** bash when installed, else POSIX sh. */
export function defaultShell(): string {
  return fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

export function bashTool(deck: DeckContext): Card {
  const defaultTimeout = optionsOf(deck).bashTimeoutMs ?? BASH_LIMITS.defaultTimeoutMs;
  return defineCard({
    name: "bash",
    label: "Run shell command",
    readOnly: false,
    description: `Run a shell command with bash in the working directory and return its combined stdout and stderr with the exit code. Stdin is closed, so interactive programs get EOF. Times out after ${seconds(defaultTimeout)} unless timeout (ms, at most ${seconds(BASH_LIMITS.maxTimeoutMs)}) is given; on timeout or cancellation the command and all its child processes are killed. Long output keeps its first and last ${formatBytes(BASH_LIMITS.headBytes)}. For servers and watchers use the process tool instead.`,
    parameters: objectSchema(
      {
        command: { type: "string", description: "The command line to run." },
        timeout: {
          type: "integer",
          minimum: 1,
          maximum: BASH_LIMITS.maxTimeoutMs,
          description: "Deadline in milliseconds.",
        },
        cwd: { type: "string", description: "Directory to run in (default: the working directory)." },
        description: { type: "string", description: "A short note of what the command does, for the transcript." },
      },
      ["command"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const command = reqString(args, ["command", "cmd"]);
      const timeoutMs =
        optInt(args, ["timeout", "timeout_ms", "timeoutMs"], { min: 1, max: BASH_LIMITS.maxTimeoutMs }) ??
        defaultTimeout;
      const cwdArg = optString(args, ["cwd", "workdir"]);
      const cwd = cwdArg === undefined ? ctx.cwd : resolvePath(ctx.cwd, cwdArg);
      if (!fs.existsSync(cwd)) return errorResult(`bash: working directory ${cwd} does not exist`);

      const result = await runProcessGroup({
        command: defaultShell(),
        args: ["-c", command],
        cwd,
        env: { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" },
        signal: ctx.signal,
        timeoutMs,
        headBytes: BASH_LIMITS.headBytes,
        tailBytes: BASH_LIMITS.tailBytes,
        merge: true,
        graceMs: BASH_LIMITS.killGraceMs,
      });
      if (result.spawnError !== undefined) return errorResult(`bash: ${result.spawnError}`);

      const output = result.stdout.replace(/\s+$/, "");
      let status: string;
      if (result.timedOut) status = `timed out after ${seconds(timeoutMs)}; the command and its children were killed`;
      else if (result.aborted) status = "cancelled; the command and its children were killed";
      else if (result.signal) status = `killed by signal ${result.signal}`;
      else status = `exit code ${result.exitCode}`;
      const trailer = `[${status} · ${seconds(result.durationMs)}${result.droppedBytes > 0 ? ` · ${formatBytes(result.droppedBytes)} of output omitted from the middle` : ""}]`;
      const text = output === "" ? `(no output)\n${trailer}` : `${output}\n${trailer}`;
      const ok = !result.timedOut && !result.aborted && result.signal === null && result.exitCode === 0;
      return ok ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], isError: true };
    },
  });
}
