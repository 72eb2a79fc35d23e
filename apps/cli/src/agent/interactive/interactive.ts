/**
 * The interactive session on a terminal, on node:readline: a prompt with
 * history, streamed answers, Ctrl-C to interrupt the running turn (its tools
 * are cancelled through their AbortSignal), Ctrl-C twice at an empty prompt or
 * Ctrl-D to leave, and slash commands for the deck and its MCP servers.
 *
 * While a turn runs, readline keeps reading (so Ctrl-C arrives as a keypress)
 * but its echo is muted; anything typed meanwhile stays in the line buffer and
 * reappears at the next prompt, and a line entered meanwhile runs next.
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Writable } from "node:stream";
import { VERSION } from "../../version";
import { cliEnv } from "../../cli-env";
import type { AgentEvent } from "../events";
import { bindHost, bindSubAgents, sessionSettings } from "../session-settings";
import { PermissionGate, type PermissionAnswer } from "../session/permission";
import { activityLine, makeStyle, summariseInput, type Style } from "../render";
import { startupWarnings } from "../../boot/startup-warnings";
import type { AgentFlags, AgentIo, Prepared } from "../prepared";
import { AgentSession } from "../session/session";
import { attachMentions, MentionCompleter, parsePromptCommand, promptText } from "./mentions";
import { runSlashCommand, SLASH_COMMANDS, type SlashContext } from "./slash-commands";

const HISTORY_LIMIT = 500;

/** readline's output: forwards to the terminal unless muted (echo off during a turn). */
class MutableOutput extends Writable {
  muted = false;
  readonly isTTY = true;

  constructor(private readonly target: NodeJS.WriteStream) {
    super();
    target.on("resize", () => this.emit("resize"));
  }

  get columns(): number {
    return this.target.columns ?? 80;
  }

  get rows(): number {
    return this.target.rows ?? 24;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // Synchronous hand-off keeps readline's writes in order with the renderer's.
    if (!this.muted) this.target.write(chunk);
    callback();
  }
}

function historyFile(home: string): string {
  return path.join(home, ".indusvx", "history");
}

function loadHistory(file: string): string[] {
  try {
    const lines = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim().length > 0);
    return lines.slice(-HISTORY_LIMIT).reverse();
  } catch {
    return [];
  }
}

function appendHistory(file: string, line: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${line.replace(/\n/g, " ")}\n`, { mode: 0o600 });
  } catch {
    /* history is a convenience */
  }
}

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

class TerminalView {
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

export async function runInteractive(prepared: Prepared, flags: AgentFlags, io: AgentIo): Promise<number> {
  const out = io.stdout as NodeJS.WriteStream;
  const color = io.env.NO_COLOR === undefined && io.env.TERM !== "dumb";
  const style = makeStyle(color);
  const view = new TerminalView(out, style);
  const home = io.env.HOME && io.env.HOME.length > 0 ? io.env.HOME : cliEnv().home;
  const history = historyFile(home);

  const output = new MutableOutput(out);
  const mainPrompt = `${style.cyan("›")} `;
  const catalog = prepared.deck.mcp.catalog;
  const readyServers = () =>
    prepared.deck.mcp
      .servers()
      .filter((s) => s.phase === "ready")
      .map((s) => s.id);
  const completer = new MentionCompleter(
    catalog,
    readyServers,
    SLASH_COMMANDS.map((c) => c.name),
  );
  const rl = readline.createInterface({
    input: io.stdin,
    output,
    terminal: true,
    completer: (line: string, callback: (error: null, result: [string[], string]) => void) => {
      completer.complete(line).then(
        (result) => callback(null, result),
        () => callback(null, [[], line]),
      );
    },
    prompt: mainPrompt,
    history: loadHistory(history),
    historySize: HISTORY_LIMIT,
    removeHistoryDuplicates: true,
  });

  let busy: AbortController | undefined;
  let pendingQuestion: ((line: string | undefined) => void) | undefined;
  /** Lines entered while something ran; echoed when their turn comes (echo was muted). */
  const queued: { line: string; typedAhead: boolean }[] = [];
  let idleInterrupts = 0;
  let closing = false;

  /**
   * Ask one question on the prompt line, even mid-turn. `undefined` when
   * interrupted. `spaced`: a blank line first (a form's fields follow one
   * another without).
   */
  const askNow = (question: string, signal: AbortSignal, spaced: boolean): Promise<string | undefined> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const finish = (line: string | undefined) => {
        signal.removeEventListener("abort", onAbort);
        // An answer is not a prompt: keep it out of Up-arrow history.
        const kept = (rl as unknown as { history?: string[] }).history;
        if (line !== undefined && kept && kept[0] === line) kept.shift();
        pendingQuestion = undefined;
        rl.setPrompt(mainPrompt);
        output.muted = busy !== undefined;
        resolve(line);
      };
      const onAbort = () => {
        view.line();
        finish(undefined);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      pendingQuestion = finish;
      if (spaced) view.line();
      else view.freshLine();
      output.muted = false;
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      rl.setPrompt(question);
      rl.prompt(true);
    });

  /** Questions take turns on the one prompt line (a server may ask while a permission ask waits). */
  let asking: Promise<unknown> = Promise.resolve();
  const ask = (question: string, signal: AbortSignal, spaced = true): Promise<string | undefined> => {
    const next = asking.then(() => askNow(question, signal, spaced));
    asking = next;
    return next;
  };

  const gate = new PermissionGate({
    allow: prepared.allow,
    yes: flags.yes === true,
    ask: async (call, signal): Promise<PermissionAnswer> => {
      const line = await ask(
        `${style.yellow("?")} allow ${style.bold(call.name)} ${style.dim(summariseInput(call.input, 70))}  [y]es once · [a]lways this session · [n]o › `,
        signal,
      );
      const answer = (line ?? "").trim().toLowerCase();
      return answer === "a" || answer === "always" ? "always" : answer === "y" || answer === "yes" ? "once" : "deny";
    },
  });

  const session = new AgentSession({
    ...sessionSettings(prepared),
    gate,
    approvePlan: async (plan, signal) => {
      view.line(style.bold("Proposed plan:"));
      for (const l of plan.trimEnd().split("\n")) view.line(`  ${l}`);
      const line = await ask(`${style.yellow("?")} approve this plan? [y]es · [n]o, keep planning › `, signal);
      const answer = (line ?? "").trim().toLowerCase();
      return answer === "y" || answer === "yes";
    },
    autoApprovePlans: false,
    emit: (event) => view.onEvent(event),
  });
  bindSubAgents(prepared, session, gate, (event) => view.onEvent(event));
  // Servers' forms, links and sampling requests are asked on the prompt line, like permissions.
  const idle = new AbortController();
  const signal = () => busy?.signal ?? idle.signal;
  bindHost(prepared, session, {
    terminal: {
      // A question its server withdrew leaves the prompt line as an interrupt would.
      ask: (question, withdrawn) =>
        ask(question, withdrawn === undefined ? signal() : AbortSignal.any([signal(), withdrawn]), false),
      print: (text) => view.line(text),
      style,
      width: Math.max(40, (out.columns ?? 100) - 2),
      // Between turns the prompt line is readline's: leave it, and draw it again after.
      begin: () => {
        if (!busy && !draining && !pendingQuestion) view.leavePrompt();
      },
      settled: () => {
        if (!busy && !draining && !closing) rl.prompt(true);
      },
    },
    signal,
    emit: (event) => view.onEvent(event),
    env: io.env,
  });

  const slash: SlashContext = {
    session,
    checkpoints: prepared.checkpoints,
    deck: prepared.deck,
    style,
    print: (text) => view.line(text),
    exit: () => rl.close(),
    host: prepared.host,
  };

  // Banner.
  session.start();
  const descriptors = prepared.deck.box.descriptors();
  const servers = session.servers();
  const serverText =
    servers.length === 0
      ? prepared.deck.diagnostics.length > 0
        ? "no MCP servers (see the config warnings below)"
        : "no MCP servers"
      : servers.map((s) => `${s.id} ${s.phase === "ready" ? style.green("✓") : style.red("✗")}`).join(", ");
  view.line(
    `${style.bold("indusr")} ${VERSION} · ${prepared.config.provider === "openai" ? "openai-compatible" : "anthropic"} ${prepared.modelId} · ${descriptors.length} tools · ${serverText}`,
  );
  for (const line of startupWarnings(prepared.deck.diagnostics, servers))
    view.line(`${style.yellow("warning:")} ${line}`);
  view.line(style.dim("/help for commands · Ctrl-C interrupts a turn · Ctrl-C twice or Ctrl-D to leave"));

  const runTask = async (text: string) => {
    busy = new AbortController();
    output.muted = true;
    try {
      await session.run(text, busy.signal);
    } catch (error) {
      view.line(style.red(`✗ ${(error as Error).message}`));
    } finally {
      busy = undefined;
      output.muted = false;
    }
  };

  /** `/server:prompt args`: get the prompt from its server and run it as the next task. */
  const runPrompt = async (line: string): Promise<boolean> => {
    const head = line.slice(1).split(/\s/)[0] ?? "";
    if (!catalog || !head.includes(":")) return false;
    const parsed = parsePromptCommand(line, await completer.promptList());
    if (!parsed) {
      view.line(`Unknown prompt /${head}: Tab after / lists the servers' prompts.`);
      return true;
    }
    if (parsed.missing.length > 0) {
      view.line(
        `/${head} needs ${parsed.missing.map((a) => `${a}=…`).join(" ")} (arguments: ${parsed.prompt.arguments.map((a) => a.name).join(", ")})`,
      );
      return true;
    }
    let text: string;
    try {
      text = promptText(await catalog.getPrompt(parsed.prompt.server, parsed.prompt.name, parsed.args));
    } catch (error) {
      view.line(style.red(`✗ /${head}: ${(error as Error).message}`));
      return true;
    }
    view.line(style.dim(`▸ prompt ${parsed.prompt.server}:${parsed.prompt.name}`));
    await runTask(text);
    return true;
  };

  /** Read every `@server:uri` in the line and append it to the prompt. */
  const withAttachments = async (line: string): Promise<string> => {
    if (!catalog || !line.includes("@")) return line;
    const { prompt, attached, failed } = await attachMentions(line, catalog, new Set(readyServers()));
    for (const a of attached) view.line(style.dim(`📎 @${a.server}:${a.uri} (${a.chars} chars)`));
    for (const f of failed) view.line(`${style.yellow("warning:")} not attached: ${f}`);
    return prompt;
  };

  const handleLine = async (raw: string) => {
    const line = raw.trim();
    idleInterrupts = 0;
    if (line.length === 0) return;
    appendHistory(history, line);
    if (line.startsWith("/") && (await runPrompt(line))) return;
    if (line.startsWith("/")) {
      busy = new AbortController();
      try {
        await runSlashCommand(line, slash);
      } finally {
        busy = undefined;
      }
      return;
    }
    await runTask(await withAttachments(line));
  };

  let draining: Promise<void> | undefined;
  const drain = () => {
    draining ??= (async () => {
      try {
        while (queued.length > 0 && !closing) {
          const next = queued.shift()!;
          if (next.typedAhead && next.line.trim().length > 0) view.line(`${mainPrompt}${next.line}`);
          await handleLine(next.line);
        }
      } finally {
        draining = undefined;
      }
      if (!closing) rl.prompt(true);
    })();
  };

  rl.on("line", (line) => {
    if (pendingQuestion) return pendingQuestion(line);
    queued.push({ line, typedAhead: busy !== undefined });
    drain();
  });

  rl.on("SIGINT", () => {
    if (pendingQuestion) {
      pendingQuestion(undefined);
      busy?.abort();
      return;
    }
    if (busy) {
      busy.abort();
      return;
    }
    if (rl.line.length > 0) {
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      idleInterrupts = 0;
      return;
    }
    idleInterrupts += 1;
    if (idleInterrupts >= 2) {
      rl.close();
      return;
    }
    view.leavePrompt();
    view.line(style.dim("(press Ctrl-C again to exit)"));
    rl.prompt(true);
  });

  const onTerm = () => rl.close();
  io.signals?.on("SIGTERM", onTerm);

  rl.prompt();
  await new Promise<void>((resolve) => rl.once("close", () => resolve()));
  closing = true;
  if (!busy && !draining) view.leavePrompt();
  io.signals?.off("SIGTERM", onTerm);
  busy?.abort();
  if (draining) await draining;
  const summary = session.summary();
  view.line(
    style.dim(
      `bye · ${summary.turns} turn${summary.turns === 1 ? "" : "s"} · ${formatTokens(summary.usage.totalTokens)} tokens · transcript ${session.transcript.file}`,
    ),
  );
  session.close();
  await prepared.deck.close().catch(() => undefined);
  return 0;
}
