/**
 * The interactive session on a terminal: a prompt with history, streamed
 * answers, Ctrl-C to interrupt the running turn (its tools are cancelled
 * through their AbortSignal), Ctrl-C twice at an empty prompt or Ctrl-D to
 * leave, and slash commands for the deck and its MCP servers. This wires the
 * parts: the prompt line (`prompt-line.ts`), the task runner
 * (`task-runner.ts`), the view (`terminal-view.ts`) and the session.
 */
import { VERSION } from "../../version";
import { cliEnv } from "../../cli-env";
import { startupWarnings } from "../../boot/startup-warnings";
import type { EventSink } from "../events";
import { bindHost, bindSubAgents, sessionSettings } from "../session-settings";
import { PermissionGate, type PermissionAnswer } from "../session/permission";
import { makeStyle, type Style } from "../render";
import { serverOfTool } from "../session-settings";
import { permissionOptions, permissionQuestion } from "./permission-question";
import type { AgentFlags, AgentIo, Prepared } from "../prepared";
import { AgentSession } from "../session/session";
import { BackgroundTasks, DEFAULT_BACKGROUND_AFTER_MS } from "../session/background-tasks";
import { type SlashContext } from "./slash-commands";
import { historyFile, loadHistory } from "./history";
import { PromptLine } from "./prompt-line";
import { ServerMentions } from "./server-mentions";
import { AppHost } from "../../apps/app-host";
import { TaskRunner } from "./task-runner";
import { resumeWith } from "./session-commands";
import { resumeChoice } from "../session/resume";
import { formatTokens, TerminalView } from "./terminal-view";

export async function runInteractive(prepared: Prepared, flags: AgentFlags, io: AgentIo): Promise<number> {
  const out = io.stdout as NodeJS.WriteStream;
  const style = makeStyle(io.env.NO_COLOR === undefined && io.env.TERM !== "dumb");
  const view = new TerminalView(out, style);
  const home = io.env.HOME && io.env.HOME.length > 0 ? io.env.HOME : cliEnv().home;
  const history = historyFile(home);
  const mentions = new ServerMentions(prepared.deck.mcp, view, style);
  const line = new PromptLine({
    input: io.stdin,
    out,
    view,
    mainPrompt: `${style.cyan("›")} `,
    completer: mentions.completer,
    history: loadHistory(history),
  });
  const current: { tasks?: TaskRunner } = {};
  const gate = permissionGate(prepared, flags, line, style);
  const apps = new AppHost({
    box: () => prepared.deck.box,
    gate,
    print: (text) => view.line(text),
    style,
    autoOpen: flags.apps === "browser",
    env: io.env,
  });
  const shown = idleAwareEmit(view, line, () => current.tasks);
  const emit: EventSink = (event) => {
    shown(event);
    apps.observe(event);
  };
  const background = new BackgroundTasks(backgroundAfterMs(io.env), emit);
  const session = new AgentSession({
    ...sessionSettings(prepared),
    background,
    gate,
    approvePlan: planApprover(line, view, style),
    autoApprovePlans: false,
    emit,
  });
  bindSubAgents(prepared, session, gate, emit);
  const slash: SlashContext = {
    session,
    checkpoints: prepared.checkpoints,
    deck: prepared.deck,
    style,
    print: (text) => view.line(text),
    exit: () => line.rl.close(),
    host: prepared.host,
    apps,
    background,
    sessionCommands: {
      session,
      prepared,
      style,
      print: (text) => view.line(text),
      signal: () => runner.signal(),
      ask: (question, signal) => line.ask(question, signal),
    },
  };
  const runner = new TaskRunner({ session, line, view, style, mentions, slash, historyFile: history });
  current.tasks = runner;
  line.followBusy(() => runner.running);
  bindTerminalHost(prepared, session, { io, line, view, style, tasks: runner });
  printBanner(prepared, session, view, style);
  line.rl.on("line", (text) => runner.enter(text));
  line.rl.on("SIGINT", () => runner.interrupt());
  try {
    // `--continue` / `--resume [id]`: the picker's answer comes in as a line.
    await resumeWith(resumeChoice(flags, prepared.sessionDir, prepared.cwd, session.id), slash.sessionCommands!);
    return await runUntilClosed(prepared, session, { io, line, view, style, tasks: runner });
  } finally {
    background.stopAll();
    await apps.close();
  }
}

/** When a task call moves to the background: `INDUSR_TASK_BACKGROUND_MS`, else two minutes. */
function backgroundAfterMs(env: NodeJS.ProcessEnv): number {
  const configured = Number(env.INDUSR_TASK_BACKGROUND_MS);
  return Number.isInteger(configured) && configured >= 0 ? configured : DEFAULT_BACKGROUND_AFTER_MS;
}

/** Events go to the view; a server lost or back, or a background task's end, while nobody types is said above the prompt, which is drawn again. */
function idleAwareEmit(view: TerminalView, line: PromptLine, tasks: () => TaskRunner | undefined): EventSink {
  return (event) => {
    const runner = tasks();
    const aside = event.type === "server_change" || event.type === "background_task";
    const idle = aside && runner?.atPrompt === true && !line.questionPending;
    if (idle) view.leavePrompt();
    view.onEvent(event);
    if (idle && !runner.closed) line.rl.prompt(true);
  };
}

interface Terminal {
  readonly io: AgentIo;
  readonly line: PromptLine;
  readonly view: TerminalView;
  readonly style: Style;
  readonly tasks: TaskRunner;
}

/** Mutating tools ask on the prompt line, one key: once, always (this tool or its server, saved for the project), or no. */
function permissionGate(prepared: Prepared, flags: AgentFlags, line: PromptLine, style: Style): PermissionGate {
  const serverOf = serverOfTool(prepared);
  return new PermissionGate({
    allow: prepared.allow,
    yes: flags.yes === true,
    project: prepared.permissions,
    serverOf,
    ask: async (call, signal): Promise<PermissionAnswer> => {
      const server = serverOf(call.name);
      const answer = await line.askKey(permissionQuestion(call, server, style), permissionOptions(server), signal);
      return answer ?? "deny";
    },
  });
}

/** A proposed plan is shown and approved (or not) on the prompt line. */
function planApprover(
  line: PromptLine,
  view: TerminalView,
  style: Style,
): (plan: string, signal: AbortSignal) => Promise<boolean> {
  return async (plan, signal) => {
    view.line(style.bold("Proposed plan:"));
    for (const l of plan.trimEnd().split("\n")) view.line(`  ${l}`);
    const answer = await line.ask(`${style.yellow("?")} approve this plan? [y]es · [n]o, keep planning › `, signal);
    const said = (answer ?? "").trim().toLowerCase();
    return said === "y" || said === "yes";
  };
}

/** Servers' forms, links and sampling requests are asked on the prompt line, like permissions. */
function bindTerminalHost(prepared: Prepared, session: AgentSession, { io, line, view, style, tasks }: Terminal): void {
  bindHost(prepared, session, {
    terminal: {
      // A question its server withdrew leaves the prompt line as an interrupt would.
      ask: (question, withdrawn) =>
        line.ask(
          question,
          withdrawn === undefined ? tasks.signal() : AbortSignal.any([tasks.signal(), withdrawn]),
          false,
        ),
      print: (text) => view.line(text),
      style,
      width: Math.max(40, ((io.stdout as NodeJS.WriteStream).columns ?? 100) - 2),
      // Between turns the prompt line is readline's: leave it, and draw it again after.
      begin: () => {
        if (tasks.atPrompt && !line.questionPending) view.leavePrompt();
      },
      settled: () => {
        if (tasks.atPrompt && !tasks.closed) line.rl.prompt(true);
      },
    },
    signal: () => tasks.signal(),
    emit: (event) => view.onEvent(event),
    env: io.env,
  });
}

/** The first lines: version, model, tools, servers, config warnings, how to leave. */
function printBanner(prepared: Prepared, session: AgentSession, view: TerminalView, style: Style): void {
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
  for (const warning of startupWarnings(prepared.deck.diagnostics, servers))
    view.line(`${style.yellow("warning:")} ${warning}`);
  // A server that changes a definition mid-session (list_changed) is announced as it happens.
  prepared.deck.trust?.onWithheld((withheld) => view.line(`${style.yellow("warning:")} ${withheld.message}`));
  prepared.deck.trust?.onAdded((added) => view.line(`${style.dim("note:")} ${added.message}`));
  view.line(style.dim("/help for commands · Ctrl-C interrupts a turn · Ctrl-C twice or Ctrl-D to leave"));
}

/** Read lines until Ctrl-D, `/exit` or SIGTERM; then say goodbye and close the session and the deck. */
async function runUntilClosed(
  prepared: Prepared,
  session: AgentSession,
  { io, line, view, style, tasks }: Terminal,
): Promise<number> {
  const onTerm = () => line.rl.close();
  io.signals?.on("SIGTERM", onTerm);
  line.rl.prompt();
  await new Promise<void>((resolve) => line.rl.once("close", () => resolve()));
  io.signals?.off("SIGTERM", onTerm);
  await tasks.close();
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
