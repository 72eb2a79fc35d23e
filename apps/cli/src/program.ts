/**
 * The command tree. Every command module is loaded only when that command
 * runs, so `indusr --version` and `indusr --help` stay cheap.
 */
import { Argument, Command, CommanderError } from "commander";
import { didYouMean } from "./did-you-mean";
import { mcpCommand } from "./mcp-commands";
import { EXIT, UsageError } from "./exit";
import { withFlags } from "./flags";
import type { RunLazy } from "./lazy-command";
import { VERSION } from "./version";

export { EXIT, UsageError } from "./exit";

const TOOL_FLAGS = ["mcp", "tools", "no-tools", "profile", "cwd", "log-dir"] as const;

function commandNames(program: Command): string[] {
  return program.commands.map((c) => c.name());
}

export type { CommandHandler, RunLazy } from "./lazy-command";

export function buildProgram(run: RunLazy): Command {
  const program = rootCommand(run);
  program.addCommand(toolsCommand(run));
  program.addCommand(callCommand(run));
  program.addCommand(mcpCommand(run));
  program.addCommand(doctorCommand(run));
  program.addCommand(completionCommand(run, program));
  return program;
}

/** `indusr [prompt...]`: the agent. */
function rootCommand(run: RunLazy): Command {
  const program = new Command("indusr")
    .description("A coding agent that sees MCP tools exactly like its built-ins, and an MCP gateway.")
    .version(VERSION, "-v, --version", "Print the version")
    .argument("[prompt...]", "A task to run (interactive session when omitted on a terminal)")
    .helpOption("-h, --help", "Show help")
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);
  withFlags(program, [
    ...TOOL_FLAGS,
    "session-dir",
    "print",
    "mcp-tool-budget",
    "max-turns",
    "allow",
    "yes",
    "add-dir",
    "allow-sampling",
    "apps",
    "continue",
    "resume",
    "provider",
    "model",
    "subagent-model",
    "base-url",
    "output-format",
  ]);
  program.action((prompt: string[], options: Record<string, unknown>) => {
    // A lone word that looks like a command is a typo, not a task for the model.
    const suggestion = prompt.length === 1 ? didYouMean(prompt[0]!, commandNames(program)) : undefined;
    if (suggestion !== undefined) throw new UsageError(suggestion);
    return run(() => import("./commands/agent").then((m) => m.agentCommand), [prompt, options]);
  });
  return program;
}

function toolsCommand(run: RunLazy): Command {
  return withFlags(
    new Command("tools").description("List every tool the agent sees: built-ins, app cards and MCP tools"),
    [...TOOL_FLAGS, "mcp-tool-budget", "json"],
  ).action((options: Record<string, unknown>) =>
    run(() => import("./commands/tools").then((m) => m.toolsCommand), [options]),
  );
}

function callCommand(run: RunLazy): Command {
  return withFlags(
    new Command("call")
      .description("Run one tool once and print its result (exit 1 when the tool reports an error)")
      .argument("<tool>", "Tool name, e.g. read or everything__echo")
      .argument("[json-args]", "Arguments as a JSON object")
      .option("--args-file <file>", "Read the arguments from a JSON file (- for stdin)"),
    [...TOOL_FLAGS, "json"],
  ).action((tool: string, json: string | undefined, options: Record<string, unknown>) =>
    run(() => import("./commands/call").then((m) => m.callCommand), [tool, json, options]),
  );
}

function doctorCommand(run: RunLazy): Command {
  return withFlags(
    new Command("doctor").description(
      "Check the setup: config files and their problems, each server's command on PATH, auth, era and connect time",
    ),
    ["mcp", "cwd", "json", "log-dir"],
  ).action((options) => run(() => import("./commands/doctor").then((m) => m.doctorCommand), [options]));
}

function completionCommand(run: RunLazy, program: Command): Command {
  return new Command("completion")
    .description("Print a shell completion script: indusr completion bash|zsh|fish")
    .addArgument(new Argument("<shell>", "Your shell").choices(["bash", "zsh", "fish"]))
    .action((shell: "bash" | "zsh" | "fish") =>
      run(() => import("./commands/completion").then((m) => m.completionCommand), [shell, program]),
    );
}

/** Parse and run; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(async (load, args) => {
    const { installTeardown, setExitCode } = await import("./teardown");
    // The agent handles SIGINT/SIGTERM itself once its session runs (handOverSignals); until then, ours.
    installTeardown();
    const command = await load();
    code = await command(...args);
    // Set before the command's own teardown could be cut short.
    setExitCode(code);
  });
  program.exitOverride();
  for (const sub of program.commands) {
    sub.exitOverride();
    for (const leaf of sub.commands) leaf.exitOverride();
  }
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`indusr: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return code;
}
