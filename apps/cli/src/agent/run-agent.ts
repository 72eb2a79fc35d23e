/**
 * `indusr [-p] "…"` and bare `indusr`: resolve the model, check it answers,
 * boot the deck (built-ins plus MCP servers), then run one task (print mode)
 * or open the interactive session. Everything the command touches (boot,
 * streams, environment, signals) comes in through `AgentIo`, so tests run the
 * whole command in-process as well as through the real binary.
 */
import path from "node:path";
import { silentProgress, terminalProgress, type ProgressSink } from "../boot/progress";
import { cliEnv, defaultLogDir, defaultSessionDir, type CliEnv } from "../cli-env";
import type { BootedDeck } from "../boot/boot-types";
import type { AgentEvent } from "./events";
import { bindHost, bindSubAgents, serverOfTool, sessionSettings } from "./session-settings";
import { SubAgentRunner } from "./sub-agent";
import { SessionCheckpoints } from "./session/checkpoints";
import { matchesAny, PermissionGate, type PermissionAsker } from "./session/permission";
import { askKey } from "./interactive/key-question";
import { keyApprover } from "./interactive/approval-question";
import { permissionOptions, permissionQuestion } from "./interactive/permission-question";
import { chooseModel, preflight } from "./model/preflight";
import { resolveModelConfig, type ModelConfig } from "./model/provider-config";
import { JsonRenderer, makeStyle, StreamJsonRenderer, TextRenderer, type Renderer } from "./render";
import { AgentSession } from "./session/session";
import { DEFAULT_BUDGET_SHARE, defaultContextWindow } from "../tool-search/deferral";
import { startupWarnings } from "../boot/startup-warnings";
import { announceTrust } from "../trust/trust-lines";
import { loadSettings, type AgentSettings } from "./settings";
import { AgentSetupError, isAgentSetupError } from "./setup-error";
import type { AgentFlags, AgentIo, BootOptions, Prepared } from "./prepared";
import { AgentClientHost } from "./host/agent-client-host";
import { addDirsOf } from "./host/add-dir";
import { loadInstructions, projectRoot } from "./session/project-instructions";
import { ProjectPermissions } from "./session/project-permissions";
import { restoreConversation, resumeChoice, resumeNote } from "./session/resume";

export type { AgentFlags, AgentIo, BootDeck, BootOptions, Prepared } from "./prepared";

export const DEFAULT_MAX_TURNS = 100;
export const EXIT_INTERRUPTED = 130;

const isTty = (stream: unknown): boolean => Boolean((stream as { isTTY?: boolean }).isTTY);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The booted-deck view of `--no-tools`: nothing at all. */
function noToolsFlag(flags: AgentFlags): boolean {
  return flags.noTools === true || flags.tools === false;
}

/** Ask on the terminal (print mode on a TTY), one key; Ctrl-C denies and stops the run. */
function terminalAsker(
  io: AgentIo,
  color: boolean,
  serverOf: (tool: string) => string | undefined,
  interrupt: () => void,
): PermissionAsker {
  const style = makeStyle(color);
  return async (call, signal) => {
    const server = serverOf(call.name);
    const answer = await askKey(
      { input: io.stdin, output: io.stderr },
      permissionQuestion(call, server, style, 80),
      permissionOptions(server),
      signal,
    );
    if (answer === undefined && !signal.aborted) interrupt();
    return answer ?? "deny";
  };
}

/** `-p --continue` / `--resume <id>`: the conversation goes on (a picker needs the interactive session). */
function resumeInPrint(
  session: AgentSession,
  prepared: Prepared,
  flags: AgentFlags,
): { readonly ok: boolean; readonly text: string } | undefined {
  const choice = resumeChoice(flags, prepared.sessionDir, prepared.cwd, session.id);
  if (choice.kind === "none") return undefined;
  if (choice.kind === "error") return { ok: false, text: choice.message };
  if (choice.kind === "pick")
    return { ok: false, text: "--resume needs a session id with -p (or use --continue for the latest here)" };
  const restored = restoreConversation(choice.session);
  session.restore(restored);
  return { ok: true, text: resumeNote(restored) };
}

/** What the project adds to every session: its instructions, its saved permissions, the window to fit. */
function projectContext(cwd: string, home: string, env: NodeJS.ProcessEnv, contextWindow: number) {
  return {
    instructions: loadInstructions({ cwd, home }),
    permissions: new ProjectPermissions(projectRoot(cwd), env),
    contextWindow,
  };
}

/** The session asks for other tools' project files itself, one key each (a -p run lists what it skipped). */
function approvalBootOptions(interactive: boolean, io: AgentIo): Pick<BootOptions, "interactive" | "approve"> {
  if (!interactive) return {};
  const color = io.env.NO_COLOR === undefined && io.env.TERM !== "dumb";
  return { interactive: true, approve: keyApprover({ input: io.stdin, output: io.stderr }, makeStyle(color)) };
}

/** How `prepare` reports: a live progress view or not, warnings, and setup errors found early. */
interface PrepareReporting {
  readonly progress: boolean;
  readonly interactive: boolean;
  readonly warn: (message: string) => void;
  readonly reportEarly: (error: AgentSetupError) => void;
}

/** Settings, model config, preflight and boot; preflight and boot overlap. */
async function prepare(flags: AgentFlags, io: AgentIo, how: PrepareReporting): Promise<Prepared> {
  const cli = cliEnv({ cwd: flags.cwd });
  const env = { ...io.env };
  const home = env.HOME && env.HOME.length > 0 ? env.HOME : cli.home;
  const { settings, warnings } = loadSettings(home, cli.cwd);
  for (const warning of warnings) how.warn(warning);
  const config = resolveModelConfig(
    { provider: flags.provider, model: flags.model, baseUrl: flags.baseUrl },
    env,
    settings,
  );
  const { sessionDir, logDir } = placesOf(flags, { ...cli, home });
  const parts = {
    delegate: new SubAgentRunner(),
    checkpoints: new SessionCheckpoints(),
    host: new AgentClientHost({
      cwd: cli.cwd,
      addDirs: addDirsOf(flags.addDir ?? [], cli.cwd),
      allowSampling: flags.allowSampling ?? [],
      yes: flags.yes === true,
    }),
  };
  const checked = preflight(config);
  // Off the terminal nothing is drawing: say at once that the model is unusable
  // rather than after the slowest server has started (the deck is closed after).
  if (!how.progress) checked.catch((error: unknown) => (isAgentSetupError(error) ? how.reportEarly(error) : undefined));
  const booting = io.bootDeck({
    cwd: cli.cwd,
    profile: (flags.profile ?? "all") as BootOptions["profile"],
    ...(flags.tools && Array.isArray(flags.tools) ? { tools: flags.tools } : {}),
    noTools: noToolsFlag(flags),
    ...(flags.mcp ? { mcp: flags.mcp } : {}),
    logDir,
    sessionDir,
    env,
    delegate: parts.delegate,
    checkpoint: parts.checkpoints,
    resourceTools: true,
    clientHost: parts.host.hooks(),
    ...settingsBootOptions(settings),
    ...approvalBootOptions(how.interactive, io),
    mcpToolBudget: flags.mcpToolBudget ?? defaultToolBudget(settings, config),
    progress: bootProgress(how.progress, io, env),
  });
  const { modelId, deck } = await bothReady(checked, booting, config);
  return {
    config,
    modelId,
    deck,
    sessionDir,
    cwd: cli.cwd,
    maxTurns: flags.maxTurns ?? settings.maxTurns ?? DEFAULT_MAX_TURNS,
    allow: [...(flags.allow ?? []), ...(settings.allow ?? [])],
    ...(settings.toolResultMaxChars !== undefined ? { resultMaxChars: settings.toolResultMaxChars } : {}),
    ...parts,
    ...(flags.subagentModel !== undefined ? { subagentModel: flags.subagentModel } : {}),
    ...projectContext(cli.cwd, home, env, settings.contextWindow ?? defaultContextWindow(config.provider)),
  };
}

/** A live view of the servers starting on the terminal, or none. */
function bootProgress(live: boolean, io: AgentIo, env: NodeJS.ProcessEnv): ProgressSink {
  if (!live) return silentProgress;
  return terminalProgress(io.stderr as NodeJS.WriteStream, {
    color: env.NO_COLOR === undefined && env.TERM !== "dumb",
  });
}

/** The session folder, and the log folder: the state folder, like every other command, unless a session folder was asked for. */
function placesOf(flags: AgentFlags, cli: CliEnv): { sessionDir: string; logDir: string } {
  const sessionDir = path.resolve(cli.cwd, flags.sessionDir ?? defaultSessionDir(cli));
  const logDir =
    flags.logDir !== undefined
      ? path.resolve(cli.cwd, flags.logDir)
      : defaultLogDir(cli, flags.sessionDir === undefined ? undefined : sessionDir);
  return { sessionDir, logDir };
}

/** What the user's settings say about the deck: Composio's key and the web search backends. */
function settingsBootOptions(settings: AgentSettings): Pick<BootOptions, "composioApiKey" | "webSearch"> {
  return {
    ...(settings.composioApiKey !== undefined ? { composioApiKey: settings.composioApiKey } : {}),
    webSearch: {
      ...(settings.searxngUrl !== undefined ? { searxngUrl: settings.searxngUrl } : {}),
      ...(settings.braveApiKey !== undefined ? { braveApiKey: settings.braveApiKey } : {}),
      ...(settings.tavilyApiKey !== undefined ? { tavilyApiKey: settings.tavilyApiKey } : {}),
    },
  };
}

/** The share of the model's context window MCP tool definitions may take before they are deferred. */
function defaultToolBudget(settings: AgentSettings, config: ModelConfig): number {
  return Math.floor((settings.contextWindow ?? defaultContextWindow(config.provider)) * DEFAULT_BUDGET_SHARE);
}

/** Wait for the preflight and the boot; on any failure the deck is closed and the failure thrown. */
async function bothReady(
  checked: ReturnType<typeof preflight>,
  booting: Promise<BootedDeck>,
  config: ModelConfig,
): Promise<{ modelId: string; deck: BootedDeck }> {
  const [pre, deck] = await Promise.allSettled([checked, booting]);
  if (pre.status === "rejected") {
    if (deck.status === "fulfilled") await deck.value.close().catch(() => undefined);
    throw pre.reason;
  }
  if (deck.status === "rejected") throw deck.reason;
  try {
    return { modelId: chooseModel(config, pre.value.models), deck: deck.value };
  } catch (error) {
    await deck.value.close().catch(() => undefined);
    throw error;
  }
}

export async function runAgentCommand(promptWords: readonly string[], flags: AgentFlags, io: AgentIo): Promise<number> {
  const format = flags.outputFormat ?? "text";
  const color = isTty(io.stderr) && io.env.NO_COLOR === undefined && io.env.TERM !== "dumb";
  const warn = (message: string) => io.stderr.write(`${makeStyle(color).yellow("warning:")} ${message}\n`);

  const positional = promptWords.join(" ").trim();
  let task =
    [flags.print ?? "", positional]
      .filter((s) => s.length > 0)
      .join(" ")
      .trim() || undefined;
  const interactive = task === undefined && isTty(io.stdin) && isTty(io.stdout);
  if (task === undefined && !interactive) {
    if (isTty(io.stdin)) {
      io.stderr.write(
        'indusr: no prompt: pass one (indusr -p "…"), pipe it on stdin, or run indusr on a terminal for a session\n',
      );
      return 2;
    }
    task = (await readAll(io.stdin)).trim() || undefined;
    if (task === undefined) {
      io.stderr.write('indusr: no prompt: stdin was empty (pass one with -p "…")\n');
      return 2;
    }
  }

  const reported = new Set<AgentSetupError>();
  const report = (error: AgentSetupError) => {
    if (reported.has(error)) return;
    reported.add(error);
    if (format !== "text" && !interactive) {
      io.stdout.write(
        `${JSON.stringify({ type: "result", subtype: "error_setup", isError: true, error: error.message, kind: error.kind })}\n`,
      );
    }
    io.stderr.write(`indusr: ${error.message}\n`);
  };
  let prepared: Prepared;
  try {
    const progress = isTty(io.stderr) && (interactive || format === "text");
    prepared = await prepare(flags, io, { progress, interactive, warn, reportEarly: report });
  } catch (error) {
    if (isAgentSetupError(error)) {
      report(error);
      return error.exitCode;
    }
    throw error;
  }

  if (interactive) {
    const { runInteractive } = await import("./interactive/interactive");
    return runInteractive(prepared, flags, io);
  }
  return runPrint(task!, prepared, { flags, io, format, color });
}

/** A print-mode run: its flags and IO, the output format, and whether stderr takes colour. */
interface PrintRun {
  readonly flags: AgentFlags;
  readonly io: AgentIo;
  readonly format: string;
  readonly color: boolean;
}

async function runPrint(task: string, prepared: Prepared, { flags, io, format, color }: PrintRun): Promise<number> {
  const renderer: Renderer =
    format === "stream-json"
      ? new StreamJsonRenderer(io.stdout)
      : format === "json"
        ? new JsonRenderer(io.stdout)
        : new TextRenderer(io.stdout, io.stderr, {
            live: isTty(io.stdout),
            color,
            width: (io.stderr as NodeJS.WriteStream).columns ?? 100,
          });
  const controller = new AbortController();
  const canAsk = format === "text" && isTty(io.stdin) && isTty(io.stderr);
  const serverOf = serverOfTool(prepared);
  const gate = new PermissionGate({
    allow: prepared.allow,
    yes: flags.yes === true,
    project: prepared.permissions,
    serverOf,
    ...(canAsk ? { ask: terminalAsker(io, color, serverOf, () => controller.abort()) } : {}),
  });
  const emit = (event: AgentEvent) => renderer.onEvent(event);
  const session = new AgentSession({
    ...sessionSettings(prepared),
    gate,
    autoApprovePlans: flags.yes === true || matchesAny("exit_plan_mode", prepared.allow),
    emit,
  });
  bindSubAgents(prepared, session, gate, emit);
  // Nobody answers forms or approves sampling in a -p run: the host's policy does.
  bindHost(prepared, session, { signal: () => controller.signal, emit, env: io.env });

  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts === 1) {
      io.stderr.write(`\nindusr: ${signal === "SIGINT" ? "interrupted" : "terminated"}; stopping running tools…\n`);
      controller.abort();
    } else {
      process.exit(signal === "SIGINT" ? EXIT_INTERRUPTED : 143);
    }
  };
  io.signals?.on("SIGINT", onSignal);
  io.signals?.on("SIGTERM", onSignal);
  let stopAnnouncing: () => void = () => undefined;
  try {
    session.start();
    const style = makeStyle(color);
    for (const line of startupWarnings(prepared.deck.diagnostics, session.servers()))
      io.stderr.write(`${style.yellow("warning:")} ${line}\n`);
    // A definition the gate withholds later in the run (a list_changed mid-run) is said as it happens.
    stopAnnouncing = announceTrust(prepared.deck.trust, (level, line) =>
      io.stderr.write(`${level === "warning" ? style.yellow("warning:") : style.dim("note:")} ${line}\n`),
    );
    const resumed = resumeInPrint(session, prepared, flags);
    if (resumed !== undefined) io.stderr.write(`${resumed.ok ? "" : "indusr: "}${resumed.text}\n`);
    if (resumed?.ok === false) return 2;
    const result = await session.run(task, controller.signal);
    renderer.finish();
    switch (result.subtype) {
      case "success":
        return 0;
      case "interrupted":
        return EXIT_INTERRUPTED;
      default:
        return 1;
    }
  } finally {
    stopAnnouncing();
    io.signals?.off("SIGINT", onSignal);
    io.signals?.off("SIGTERM", onSignal);
    session.close();
    await prepared.deck.close().catch(() => undefined);
  }
}

export { AgentSetupError };
