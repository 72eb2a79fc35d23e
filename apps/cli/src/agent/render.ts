/**
 * Views over the session's events for each `--output-format`, and the
 * terminal view the interactive session uses.
 *
 * - `stream-json`: every event, one JSON object a line, as it happens.
 * - `json`: one JSON object at the end (the result, plus servers and calls).
 * - `text`: the answer on stdout (streamed live when stdout is a terminal,
 *   only the final answer otherwise) and a short activity log on stderr.
 */
import type { AgentEvent } from "./events";

export interface Renderer {
  onEvent(event: AgentEvent): void;
  /** Flush whatever the format prints at the end. */
  finish(): void;
}

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export function makeStyle(color: boolean): Style {
  const wrap = (code: string) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { dim: wrap("2"), bold: wrap("1"), red: wrap("31"), green: wrap("32"), yellow: wrap("33"), cyan: wrap("36") };
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A one-line view of a call's input: the command, path or pattern when there is one. */
export function summariseInput(input: unknown, max = 100): string {
  if (input === null || typeof input !== "object") return clip(JSON.stringify(input) ?? "", max);
  const object = input as Record<string, unknown>;
  for (const key of ["command", "path", "file_path", "pattern", "url", "query", "message", "objective"]) {
    if (typeof object[key] === "string") return clip(object[key], max);
  }
  return clip(JSON.stringify(input), max);
}

function firstLines(text: string, lines: number, width: number): string[] {
  const all = text.split("\n").filter((l) => l.trim().length > 0);
  const shown = all.slice(0, lines).map((l) => clip(l, width));
  if (all.length > lines) shown.push(`… ${all.length - lines} more line${all.length - lines === 1 ? "" : "s"}`);
  return shown;
}

export class StreamJsonRenderer implements Renderer {
  constructor(private readonly out: NodeJS.WritableStream) {}
  onEvent(event: AgentEvent): void {
    this.out.write(`${JSON.stringify(event)}\n`);
  }
  finish(): void {}
}

export class JsonRenderer implements Renderer {
  private start: Extract<AgentEvent, { type: "session_start" }> | undefined;
  private result: Extract<AgentEvent, { type: "result" }> | undefined;
  private readonly calls = new Map<
    string,
    { id: string; name: string; input: unknown; isError?: boolean; refused?: string; durationMs?: number }
  >();
  private readonly warnings: string[] = [];
  private readonly hostRequests: Omit<Extract<AgentEvent, { type: "host_request" }>, "type">[] = [];

  constructor(private readonly out: NodeJS.WritableStream) {}

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "session_start":
        this.start = event;
        break;
      case "tool_call":
        this.calls.set(event.id, { id: event.id, name: event.name, input: event.input });
        break;
      case "tool_result": {
        const call = this.calls.get(event.id) ?? { id: event.id, name: event.name, input: undefined };
        this.calls.set(event.id, {
          ...call,
          isError: event.isError,
          durationMs: event.durationMs,
          ...(event.refused ? { refused: event.refused } : {}),
        });
        break;
      }
      case "warning":
        this.warnings.push(event.message);
        break;
      case "host_request": {
        const { type: _type, ...request } = event;
        this.hostRequests.push(request);
        break;
      }
      case "result":
        this.result = event;
        break;
      default:
        break;
    }
  }

  finish(): void {
    if (!this.result) return;
    const out = {
      ...this.result,
      provider: this.start?.provider,
      model: this.start?.model,
      servers: this.start?.servers ?? [],
      toolCalls: [...this.calls.values()],
      ...(this.warnings.length > 0 ? { warnings: this.warnings } : {}),
      ...(this.hostRequests.length > 0 ? { hostRequests: this.hostRequests } : {}),
    };
    this.out.write(`${JSON.stringify(out)}\n`);
  }
}

const HOST_REQUESTS = { form: "input", url: "link", sampling: "sampling" } as const;
const HOST_OUTCOMES = { accept: "accepted", decline: "declined", cancel: "cancelled", error: "failed" } as const;

function hostRequestLine(event: Extract<AgentEvent, { type: "host_request" }>, style: Style, width: number): string {
  const outcome = HOST_OUTCOMES[event.outcome];
  const coloured = event.outcome === "accept" ? style.green(outcome) : style.yellow(outcome);
  const tokens = event.usage ? style.dim(` (${event.usage.inputTokens} in / ${event.usage.outputTokens} out)`) : "";
  const reason = event.reason ? style.dim(` — ${clip(event.reason, Math.max(20, width - 40))}`) : "";
  return `${style.yellow("◆")} ${event.server} ${HOST_REQUESTS[event.request]}: ${coloured}${tokens}${reason}`;
}

/** The activity log lines shared by `-p` text output and the interactive view. */
export function activityLine(event: AgentEvent, style: Style, width: number): string[] | undefined {
  switch (event.type) {
    case "tool_call":
      return [
        `${style.cyan("●")} ${style.bold(event.name)} ${style.dim(summariseInput(event.input, Math.max(20, width - event.name.length - 4)))}`,
      ];
    case "tool_result":
      return toolResultLines(event, style, width);
    case "plan_mode":
      if (event.planFile !== undefined) {
        return [
          `${style.yellow("◆")} plan ${event.approved ? "approved" : "not approved"} · saved to ${event.planFile}${event.active ? " · plan mode stays on" : ""}`,
        ];
      }
      return [`${style.yellow("◆")} plan mode ${event.active ? "on: only read-only tools run" : "off"}`];
    case "warning":
      return [`${style.yellow("warning:")} ${event.message}`];
    case "compaction":
      return [compactionLine(event, style)];
    case "server_change":
      return [serverChangeLine(event, style, width)];
    case "host_request":
      return [hostRequestLine(event, style, width)];
    case "background_task":
      return [backgroundLine(event, style, width)];
    case "subagent_call":
      return [
        `  ${style.dim(`↳ ${event.agent}: ${event.name} ${summariseInput(event.input, Math.max(20, width - event.name.length - event.agent.length - 10))}`)}`,
      ];
    default:
      return undefined;
  }
}

function toolResultLines(event: Extract<AgentEvent, { type: "tool_result" }>, style: Style, width: number): string[] {
  if (event.refused && event.refused !== "interrupted")
    return [`  ${style.yellow("⎿ refused")} ${style.dim(clip(event.content, width - 14))}`];
  if (event.refused === "interrupted") return [`  ${style.yellow("⎿ interrupted")}`];
  const head = event.isError ? style.red("⎿ error") : style.green("⎿");
  const lines = firstLines(event.content, event.isError ? 3 : 2, width - 6);
  const capped = event.capped ? style.dim(` (capped; full result in ${event.capped.file})`) : "";
  const time = style.dim(` ${event.durationMs} ms`);
  if (lines.length === 0) return [`  ${head}${time}${capped}`];
  return [`  ${head} ${style.dim(lines[0]!)}${time}${capped}`, ...lines.slice(1).map((l) => `    ${style.dim(l)}`)];
}

function backgroundLine(event: Extract<AgentEvent, { type: "background_task" }>, style: Style, width: number): string {
  const head = `${style.yellow("◆")} task ${event.n} ${style.bold(event.name)}`;
  if (event.state === "started") return `${head} runs in the background (task ${event.taskId}) · /tasks`;
  const said = clip((event.content ?? "").split("\n")[0] ?? "", Math.max(20, width - event.name.length - 30));
  return `${head} ${event.state === "completed" ? style.green("done") : style.red("failed")}: ${style.dim(said)}`;
}

function compactionLine(event: Extract<AgentEvent, { type: "compaction" }>, style: Style): string {
  const why = {
    auto: "the context window was filling",
    overflow: "the model refused the request as too long",
    manual: "/compact",
  }[event.reason];
  if (event.outcome === "nothing") return `${style.yellow("◆")} nothing to compact (${why}): ${event.detail ?? ""}`;
  const what =
    event.outcome === "summarised"
      ? `${event.replaced} earlier messages summarised`
      : `${event.replaced} earlier messages dropped (no summary: ${event.detail ?? "?"})`;
  return `${style.yellow("◆")} compacted (${why}): ${what}, ${event.kept} kept; the transcript keeps all`;
}

function serverChangeLine(event: Extract<AgentEvent, { type: "server_change" }>, style: Style, width: number): string {
  if (event.phase === "ready")
    return `${style.green("✓")} ${event.server} is back · ${event.toolCount} tool${event.toolCount === 1 ? "" : "s"}`;
  const cause = event.fault
    ? `: ${clip(event.fault.message.replace(/\.$/, ""), width - event.server.length - 60)}`
    : "";
  const state = event.phase === "connecting" ? "lost; reconnecting" : "stopped";
  return `${style.red("✗")} ${event.server} ${state}${cause} · its tools are withdrawn${event.phase === "connecting" ? "" : ` · /mcp reconnect ${event.server}`}`;
}

export class TextRenderer implements Renderer {
  private readonly style: Style;
  private finalText = "";
  private turnText = "";
  private streamedSomething = false;
  private atLineStart = true;

  constructor(
    private readonly out: NodeJS.WriteStream | NodeJS.WritableStream,
    private readonly err: NodeJS.WriteStream | NodeJS.WritableStream,
    private readonly options: { live: boolean; color: boolean; width: number },
  ) {
    this.style = makeStyle(options.color);
  }

  private note(lines: string[]): void {
    if (this.options.live && !this.atLineStart) {
      this.out.write("\n");
      this.atLineStart = true;
    }
    for (const line of lines) this.err.write(`${line}\n`);
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "session_start":
        break;
      case "turn_start":
        this.turnText = "";
        break;
      case "text_delta":
        this.turnText += event.text;
        if (this.options.live) {
          this.out.write(event.text);
          this.streamedSomething = true;
          this.atLineStart = event.text.endsWith("\n");
        }
        break;
      case "turn_end":
        if (this.turnText.length > 0) this.finalText = this.turnText;
        break;
      case "result":
        if (event.result.length > 0) this.finalText = event.result;
        if (event.isError && event.error) this.note([`indusr: ${event.error}`]);
        break;
      default: {
        const lines = activityLine(event, this.style, this.options.width);
        if (lines) this.note(lines);
      }
    }
  }

  finish(): void {
    if (this.options.live) {
      if (this.streamedSomething && !this.atLineStart) this.out.write("\n");
      return;
    }
    if (this.finalText.length > 0)
      this.out.write(this.finalText.endsWith("\n") ? this.finalText : `${this.finalText}\n`);
  }
}
