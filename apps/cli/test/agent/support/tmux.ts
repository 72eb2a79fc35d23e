/**
 * Drives a program on a real terminal: a tmux server on a private socket,
 * keys sent with send-keys, the screen read with capture-pane.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { requireTool } from "@indus/testkit";

export class TmuxSession {
  private readonly socket: string;
  private readonly name = "agent";

  private constructor(socket: string) {
    this.socket = socket;
  }

  /** Start `command` (argv) with `env` in a fresh 160x50 terminal. */
  static start(
    command: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv; scriptDir: string },
  ): TmuxSession {
    requireTool("tmux"); // a missing tmux fails naming it, not with ENOENT
    const socket = `indusr-agent-${process.pid}-${Date.now().toString(36)}`;
    const launcher = path.join(options.scriptDir, `launch-${socket}.sh`);
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const exports = Object.entries(options.env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `export ${k}=${quote(String(v))}`)
      .join("\n");
    fs.writeFileSync(
      launcher,
      `#!/bin/sh\n${exports}\nexport TERM=xterm-256color\ncd ${quote(options.cwd)}\n${command.map(quote).join(" ")}\necho "[exited $?]"\nsleep 600\n`,
      { mode: 0o755 },
    );
    const session = new TmuxSession(socket);
    session.tmux(["new-session", "-d", "-s", session.name, "-x", "160", "-y", "50", launcher]);
    return session;
  }

  private tmux(args: readonly string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  /** Literal text (no key names), then optionally Enter. */
  type(text: string, enter = true): void {
    this.tmux(["send-keys", "-t", this.name, "-l", text]);
    if (enter) this.tmux(["send-keys", "-t", this.name, "Enter"]);
  }

  /** Key names: `C-c`, `Up`, `Enter`. */
  keys(...keys: string[]): void {
    this.tmux(["send-keys", "-t", this.name, ...keys]);
  }

  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", this.name, "-S", "-200"]);
  }

  /** The pid of the program tmux started (the launcher shell). */
  panePid(): number {
    return Number(this.tmux(["display-message", "-p", "-t", this.name, "#{pane_pid}"]).trim());
  }

  async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    const started = Date.now();
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() - started > timeoutMs)
        throw new Error(`no ${pattern} on screen after ${timeoutMs} ms:\n${screen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Count how many times a pattern occurs on screen (for "the prompt is back"). */
  count(pattern: RegExp): number {
    return (
      this.screen().match(
        new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`),
      ) ?? []
    ).length;
  }

  async waitForCount(pattern: RegExp, count: number, timeoutMs = 60_000): Promise<string> {
    const started = Date.now();
    for (;;) {
      if (this.count(pattern) >= count) return this.screen();
      if (Date.now() - started > timeoutMs)
        throw new Error(`fewer than ${count} of ${pattern} on screen after ${timeoutMs} ms:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  kill(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      /* already gone */
    }
  }
}

/** The last non-empty screen line is the bare prompt: the session waits for input. */
export function promptReady(screen: string): boolean {
  const lines = screen.split("\n").filter((l) => l.trim().length > 0);
  return lines.at(-1)?.trim() === "›";
}

/** Waits until the session shows its bare prompt; the screen then. */
export async function waitForPrompt(session: TmuxSession, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const screen = session.screen();
    if (promptReady(screen)) return screen;
    if (Date.now() - started > timeoutMs) throw new Error(`no prompt after ${timeoutMs} ms:\n${screen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
