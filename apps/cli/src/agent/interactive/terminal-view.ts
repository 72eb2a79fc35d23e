/**
 * The interactive session's output: streamed answers and one line per tool
 * activity, written straight to the terminal. It tracks whether the cursor is
 * at the start of a line, so a line never starts mid-answer.
 */
import type { AgentEvent } from "../events";
import { activityLine, type Style } from "../render";

/** `1234` as `1.2k`. */
export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export class TerminalView {
  private atLineStart = true;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly style: Style,
  ) {}

  write(text: string): void {
    if (text.length === 0) return;
    this.out.write(text);
    this.atLineStart = text.endsWith("\n");
  }

  /** End the prompt line readline drew (the view cannot see readline's writes). */
  leavePrompt(): void {
    this.write("\n");
  }

  /** Start a new line unless already at the start of one. */
  freshLine(): void {
    if (!this.atLineStart) this.write("\n");
  }

  line(text = ""): void {
    if (!this.atLineStart) this.write("\n");
    this.write(`${text}\n`);
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "text_delta":
        this.write(event.text);
        break;
      case "turn_start":
      case "turn_end":
      case "reasoning_delta":
      case "tool_progress":
      case "session_start":
        break;
      case "result":
        if (event.subtype === "interrupted") this.line(this.style.yellow("⏹ interrupted"));
        else if (event.isError && event.error) this.line(this.style.red(`✗ ${event.error}`));
        else if (!this.atLineStart) this.write("\n");
        this.line(
          this.style.dim(
            `${event.turns} turn${event.turns === 1 ? "" : "s"} · ${formatTokens(event.usage.inputTokens)} in / ${formatTokens(event.usage.outputTokens)} out · ${(event.durationMs / 1000).toFixed(1)} s`,
          ),
        );
        break;
      default: {
        const lines = activityLine(event, this.style, Math.max(40, (this.out.columns ?? 100) - 2));
        if (lines) for (const l of lines) this.line(l);
      }
    }
  }
}
