/**
 * Drives a program on a real terminal: a tmux server on a private socket,
 * keys sent with send-keys, the screen read with capture-pane.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { requireTool, waitFor } from "@indus/testkit";

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

  /** The screen once `pattern` is on it (no deadline of its own: Jest's ceiling; a hang reports the screen). */
  async waitFor(pattern: RegExp): Promise<string> {
    return onScreen(
      `${pattern} on screen`,
      () => this.screen(),
      (screen) => pattern.test(screen),
    );
  }

  /**
   * The screen once `pattern` occurs `count` times on it (for "the prompt is back"). Counted on the
   * screen just read: one capture-pane per poll, and the screen returned is the one that held them.
   */
  async waitForCount(pattern: RegExp, count: number): Promise<string> {
    return onScreen(
      `${count} of ${pattern} on screen`,
      () => this.screen(),
      (screen) => occurrences(screen, pattern) >= count,
    );
  }

  kill(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      /* already gone */
    }
  }
}

/** How many times `pattern` occurs in `screen` (all of them, whether or not it has the g flag). */
function occurrences(screen: string, pattern: RegExp): number {
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  return (screen.match(new RegExp(pattern.source, flags)) ?? []).length;
}

/** The last non-empty screen line is the bare prompt: the session waits for input. */
export function promptReady(screen: string): boolean {
  const lines = screen.split("\n").filter((l) => l.trim().length > 0);
  return lines.at(-1)?.trim() === "›";
}

/** Waits until the session shows its bare prompt; the screen then. */
export async function waitForPrompt(session: TmuxSession): Promise<string> {
  return onScreen("the bare prompt", () => session.screen(), promptReady);
}

/** Polls `read` until `ready` holds of it; a wait still pending at the ceiling reports the last screen. */
async function onScreen(what: string, read: () => string, ready: (screen: string) => boolean): Promise<string> {
  let screen = "";
  await waitFor(
    what,
    () => {
      screen = read();
      if (!ready(screen)) throw new Error(`not yet; screen:\n${screen}`);
      return true;
    },
    { every: 100 },
  );
  return screen;
}
