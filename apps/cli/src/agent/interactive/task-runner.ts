/**
 * What runs the lines typed at the prompt: one at a time, in order. A line
 * entered while a task runs waits its turn (echoed when it comes, as echo was
 * muted). Ctrl-C answers a pending question with nothing, interrupts the
 * running task, clears a typed line, or, twice at an empty prompt, leaves.
 */
import type { Style } from "../render";
import type { AgentSession } from "../session/session";
import { appendHistory } from "./history";
import type { PromptLine } from "./prompt-line";
import type { ServerMentions } from "./server-mentions";
import { runSlashCommand, type SlashContext } from "./slash-commands";
import type { TerminalView } from "./terminal-view";

export interface TaskRunnerOptions {
  readonly session: AgentSession;
  readonly line: PromptLine;
  readonly view: TerminalView;
  readonly style: Style;
  readonly mentions: ServerMentions;
  readonly slash: SlashContext;
  readonly historyFile: string;
}

export class TaskRunner {
  private busy: AbortController | undefined;
  private draining: Promise<void> | undefined;
  private closing = false;
  private idleInterrupts = 0;
  /** Lines entered while something ran; echoed when their turn comes (echo was muted). */
  private readonly queued: { line: string; typedAhead: boolean }[] = [];
  /** The signal between tasks (servers may ask while nothing runs). */
  private readonly idle = new AbortController();

  constructor(private readonly options: TaskRunnerOptions) {}

  /** A task or a slash command runs. */
  get running(): boolean {
    return this.busy !== undefined;
  }

  /** Nothing runs or waits: the prompt line is readline's. */
  get atPrompt(): boolean {
    return !this.busy && !this.draining;
  }

  get closed(): boolean {
    return this.closing;
  }

  /** Where a server's request made now is cancelled: the running task's, or the idle one. */
  signal(): AbortSignal {
    return this.busy?.signal ?? this.idle.signal;
  }

  /** A line entered at the prompt. */
  enter(line: string): void {
    if (this.options.line.answer(line)) return;
    this.queued.push({ line, typedAhead: this.busy !== undefined });
    this.drain();
  }

  /** Ctrl-C. */
  interrupt(): void {
    const { line, view, style } = this.options;
    if (line.answer(undefined)) {
      this.busy?.abort();
      return;
    }
    if (this.busy) {
      this.busy.abort();
      return;
    }
    if (line.rl.line.length > 0) {
      line.clearInput();
      this.idleInterrupts = 0;
      return;
    }
    this.idleInterrupts += 1;
    if (this.idleInterrupts >= 2) {
      line.rl.close();
      return;
    }
    view.leavePrompt();
    view.line(style.dim("(press Ctrl-C again to exit)"));
    line.rl.prompt(true);
  }

  /** The prompt line closed: stop the running task and let the queue finish. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.atPrompt) this.options.view.leavePrompt();
    this.busy?.abort();
    if (this.draining) await this.draining;
  }

  private drain(): void {
    this.draining ??= (async () => {
      try {
        while (this.queued.length > 0 && !this.closing) {
          const next = this.queued.shift()!;
          if (next.typedAhead && next.line.trim().length > 0)
            this.options.view.line(`${this.options.line.mainPrompt}${next.line}`);
          await this.handle(next.line);
        }
      } finally {
        this.draining = undefined;
      }
      if (!this.closing) this.options.line.rl.prompt(true);
    })();
  }

  private async handle(raw: string): Promise<void> {
    const line = raw.trim();
    this.idleInterrupts = 0;
    if (line.length === 0) return;
    appendHistory(this.options.historyFile, line);
    if (line.startsWith("/")) return this.command(line);
    await this.runTask(await this.options.mentions.withAttachments(line));
  }

  /** A server's prompt (`/server:prompt`) or a slash command. */
  private async command(line: string): Promise<void> {
    const prompt = await this.options.mentions.prompt(line);
    if (prompt) {
      if (prompt.text !== undefined) await this.runTask(prompt.text);
      return;
    }
    this.busy = new AbortController();
    try {
      await runSlashCommand(line, this.options.slash);
    } finally {
      this.busy = undefined;
      // A question the command asked left the echo muted (it was busy): the prompt comes back visible.
      this.options.line.mute(false);
    }
  }

  private async runTask(text: string): Promise<void> {
    this.busy = new AbortController();
    this.options.line.mute(true);
    try {
      await this.options.session.run(text, this.busy.signal);
    } catch (error) {
      this.options.view.line(this.options.style.red(`✗ ${(error as Error).message}`));
    } finally {
      this.busy = undefined;
      this.options.line.mute(false);
    }
  }
}
