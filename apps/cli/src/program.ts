/**
 * The command tree. Every command module is loaded only when that command
 * runs, so `indusr --version` and `indusr --help` stay cheap.
 */
import { Argument, Command, CommanderError, Option } from "commander";
import { didYouMean } from "./did-you-mean";
import { EXIT, UsageError } from "./exit";
import { withFlags } from "./flags";
import { VERSION } from "./version";

export { EXIT, UsageError } from "./exit";

const TOOL_FLAGS = ["mcp", "tools", "no-tools", "profile", "cwd", "log-dir"] as const;

function commandNames(program: Command): string[] {
  return program.commands.map((c) => c.name());
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A command module's entry point: the parsed arguments in, the exit code out. */
export type CommandHandler<A extends unknown[]> = (...args: A) => Promise<number>;

/**
 * Runs a command whose module is loaded only now. Generic in the handler's
 * parameters, so the arguments commander parsed are checked against them.
 */
export type RunLazy = <A extends unknown[]>(
  load: () => Promise<CommandHandler<A>>,
  args: A,
  how?: { readonly ownSignals: boolean },
) => Promise<void>;

export function buildProgram(run: RunLazy): Command {
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

  const tools = withFlags(
    new Command("tools").description("List every tool the agent sees: built-ins, app cards and MCP tools"),
    [...TOOL_FLAGS, "mcp-tool-budget", "json"],
  );
  tools.action((options: Record<string, unknown>) =>
    run(() => import("./commands/tools").then((m) => m.toolsCommand), [options]),
  );
  program.addCommand(tools);

  const call = withFlags(
    new Command("call")
      .description("Run one tool once and print its result (exit 1 when the tool reports an error)")
      .argument("<tool>", "Tool name, e.g. read or everything__echo")
      .argument("[json-args]", "Arguments as a JSON object")
      .option("--args-file <file>", "Read the arguments from a JSON file (- for stdin)"),
    [...TOOL_FLAGS, "json"],
  );
  call.action((tool: string, json: string | undefined, options: Record<string, unknown>) =>
    run(() => import("./commands/call").then((m) => m.callCommand), [tool, json, options]),
  );
  program.addCommand(call);

  const mcp = new Command("mcp").description("Manage MCP servers and serve the deck over MCP");
  const configFlags = ["mcp", "cwd", "json"] as const;

  mcp.addCommand(
    withFlags(new Command("list").description("Configured servers and the file each came from"), configFlags).action(
      (options) => run(() => import("./commands/mcp-config").then((m) => m.mcpListCommand), [options]),
    ),
  );
  mcp.addCommand(
    withFlags(new Command("get").description("One configured server").argument("<name>"), configFlags).action(
      (name, options) => run(() => import("./commands/mcp-config").then((m) => m.mcpGetCommand), [name, options]),
    ),
  );
  mcp.addCommand(
    withFlags(
      new Command("show-merged").description("The merged configuration, as indusr will use it"),
      configFlags,
    ).action((options) => run(() => import("./commands/mcp-config").then((m) => m.mcpShowMergedCommand), [options])),
  );
  mcp.addCommand(
    withFlags(
      new Command("status").description(
        "Connect every configured server in parallel and report (exit 1 when any failed)",
      ),
      [...configFlags, "log-dir"],
    ).action((options) => run(() => import("./commands/mcp-status").then((m) => m.mcpStatusCommand), [options])),
  );
  mcp.addCommand(
    withFlags(
      new Command("add")
        .description(
          "Add a server: `indusr mcp add fs -- npx -y @modelcontextprotocol/server-filesystem .` or `indusr mcp add api --url https://host/mcp`",
        )
        .argument("<name>", "Server id (a letter, then letters, digits, _ or -)")
        .argument("[command...]", "After --: the command and its arguments")
        .addOption(
          new Option("-s, --scope <scope>", "Which file to write").choices(["project", "user"]).default("project"),
        )
        .option("-e, --env <KEY=VALUE>", "Environment variable for a stdio server (repeatable)", collect)
        .option("-H, --header <Key: Value>", "HTTP header for a remote server (repeatable)", collect)
        .option("--url <url>", "A remote server's URL")
        .addOption(new Option("-t, --transport <transport>", "Remote transport").choices(["http", "sse"]))
        .option("--force", "Replace a server of the same name"),
      ["cwd", "json"],
    ).action((name, command, options) =>
      run(() => import("./commands/mcp-edit").then((m) => m.mcpAddCommand), [name, command, options]),
    ),
  );
  mcp.addCommand(
    withFlags(
      new Command("remove")
        .description("Remove a server from the project or user file")
        .argument("<name>")
        .addOption(new Option("-s, --scope <scope>", "Only this file").choices(["project", "user"])),
      ["cwd"],
    ).action((name, options) =>
      run(() => import("./commands/mcp-edit").then((m) => m.mcpRemoveCommand), [name, options]),
    ),
  );
  mcp.addCommand(
    withFlags(
      new Command("import")
        .description(
          "Copy servers from another client's config (into your user file unless --scope project), keeping ${VAR} references as references",
        )
        .addOption(
          new Option("--from <client>", "Where from")
            .choices(["claude-desktop", "claude-code", "vscode", "cursor", "gemini", "codex", "opencode", "windsurf"])
            .makeOptionMandatory(),
        )
        .addOption(
          new Option("-s, --scope <scope>", "Which file to write (project warns about literal secrets)")
            .choices(["project", "user"])
            .default("user"),
        )
        .option("--file <path>", "Read this file instead of the client's usual location")
        .option("--dry-run", "Show what would be imported; write nothing")
        .option("--force", "Replace servers of the same name"),
      ["cwd", "json"],
    ).action((options) => run(() => import("./commands/mcp-edit").then((m) => m.mcpImportCommand), [options])),
  );
  mcp.addCommand(
    withFlags(
      new Command("approve").description(
        "Approve this project's MCP files written by other tools (.mcp.json, .vscode/mcp.json, ...) so their servers start",
      ),
      ["cwd", "json"],
    ).action((options) => run(() => import("./commands/mcp-approve").then((m) => m.mcpApproveCommand), [options])),
  );
  mcp.addCommand(
    withFlags(
      new Command("serve")
        .description(
          "Serve the deck and every mounted server as one MCP server (default profile: authoring, read-only)",
        )
        .option("--stdio", "Serve one client over stdin/stdout (the default)")
        .option("--http", "Serve Streamable HTTP")
        .option("--host <host>", "HTTP bind address", "127.0.0.1")
        .option("--port <port>", "HTTP port (0 picks a free one)", "3333")
        .option(
          "--token-env <name>",
          "Environment variable holding the bearer token clients must send",
          "INDUSR_SERVE_TOKEN",
        )
        .option(
          "--stateless",
          "HTTP without per-process state (2025-era clients too), for replicas behind a load balancer",
        )
        .option(
          "--allowed-hosts <list>",
          "Comma-separated Host values (host:port) to accept besides the bound address, e.g. a proxy's public name",
        )
        .option(
          "--session-prefix <marker>",
          "Start every 2025-era session id with this replica marker (e.g. a.), for session-pinning proxies",
        )
        .addOption(
          new Option(
            "--names <mode>",
            "How mounted tools, prompts and resources are named: prefixed (<server>__<tool>) or as-is (the servers' own names; two servers offering one name stop the gateway from starting)",
          )
            .choices(["prefixed", "as-is"])
            .default("prefixed"),
        )
        .option(
          "--no-builtins",
          "Publish only the mounted servers (no built-in tools or app cards): with --names as-is, a gateway lists exactly its servers' tools",
        )
        .option(
          "--boot-wait <ms>",
          "Start serving once every mounted server has connected or failed, or this many milliseconds after launch (default 3000, or $INDUSR_BOOT_WAIT_MS); slower servers join later (list_changed)",
        ),
      ["mcp", "tools", "no-tools", "profile", "cwd", "log-dir"],
    ).action((options) => run(() => import("./commands/mcp-serve").then((m) => m.mcpServeCommand), [options])),
  );
  mcp.addCommand(
    withFlags(
      new Command("logs")
        .description("Show a server's stderr log from its latest run")
        .argument("<name>")
        .option("-n, --lines <n>", "Only the last n lines")
        .option("--all", "Every kept run's log, oldest first (default: the latest run)"),
      ["log-dir", "session-dir"],
    ).action((name, options) =>
      run(() => import("./commands/mcp-logs").then((m) => m.mcpLogsCommand), [name, options]),
    ),
  );
  mcp.addCommand(
    withFlags(
      new Command("login")
        .description("Sign in to a remote server (OAuth): opens the browser, or prints the URL to open")
        .argument("<name>")
        .option("--no-browser", "Print the sign-in URL instead of opening a browser"),
      ["mcp", "cwd"],
    ).action((name, options) =>
      run(() => import("./commands/mcp-login").then((m) => m.mcpLoginCommand as never), [name, options]),
    ),
  );
  mcp.addCommand(
    withFlags(new Command("logout").description("Forget the sign-in stored for a server").argument("<name>"), [
      "cwd",
    ]).action((name, options) =>
      run(() => import("./commands/mcp-login").then((m) => m.mcpLogoutCommand as never), [name, options]),
    ),
  );
  program.addCommand(mcp);

  program.addCommand(
    withFlags(
      new Command("doctor").description(
        "Check the setup: config files and their problems, each server's command on PATH, auth, era and connect time",
      ),
      ["mcp", "cwd", "json", "log-dir"],
    ).action((options) => run(() => import("./commands/doctor").then((m) => m.doctorCommand), [options])),
  );
  program.addCommand(
    new Command("completion")
      .description("Print a shell completion script: indusr completion bash|zsh|fish")
      .addArgument(new Argument("<shell>", "Your shell").choices(["bash", "zsh", "fish"]))
      .action((shell: "bash" | "zsh" | "fish") =>
        run(() => import("./commands/completion").then((m) => m.completionCommand), [shell, program]),
      ),
  );
  return program;
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
