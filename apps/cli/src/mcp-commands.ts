/**
 * The `indusr mcp` command tree: config views, edits, `serve`, logs and
 * sign-in. Like the rest of the tree, each command's module loads only when
 * that command runs.
 */
import { Command, Option } from "commander";
import { withGatewayFlags } from "./commands/serve-gateway-flags";
import { withFlags } from "./flags";
import type { RunLazy } from "./lazy-command";

const CONFIG_FLAGS = ["mcp", "cwd", "json"] as const;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function mcpCommand(run: RunLazy): Command {
  const mcp = new Command("mcp").description("Manage MCP servers and serve the deck over MCP");
  for (const command of [
    ...configCommands(run),
    ...editCommands(run),
    serveCommand(run),
    logsCommand(run),
    ...signInCommands(run),
  ])
    mcp.addCommand(command);
  return mcp;
}

/** `list`, `get`, `show-merged`, `status`, `skills`. */
function configCommands(run: RunLazy): Command[] {
  return [
    withFlags(new Command("list").description("Configured servers and the file each came from"), CONFIG_FLAGS).action(
      (options) => run(() => import("./commands/mcp-config").then((m) => m.mcpListCommand), [options]),
    ),
    withFlags(new Command("get").description("One configured server").argument("<name>"), CONFIG_FLAGS).action(
      (name, options) => run(() => import("./commands/mcp-config").then((m) => m.mcpGetCommand), [name, options]),
    ),
    withFlags(
      new Command("show-merged").description("The merged configuration, as indusr will use it"),
      CONFIG_FLAGS,
    ).action((options) => run(() => import("./commands/mcp-config").then((m) => m.mcpShowMergedCommand), [options])),
    withFlags(
      new Command("status").description(
        "Connect every configured server in parallel and report (exit 1 when any failed)",
      ),
      [...CONFIG_FLAGS, "log-dir"],
    ).action((options) => run(() => import("./commands/mcp-status").then((m) => m.mcpStatusCommand), [options])),
    withFlags(
      new Command("skills")
        .description("The skills the servers offer (Skills extension), as the agent's /<server>:<skill> commands")
        .argument("[server]"),
      [...CONFIG_FLAGS, "log-dir"],
    ).action((server, options) =>
      run(() => import("./commands/mcp-skills").then((m) => m.mcpSkillsCommand), [server, options]),
    ),
  ];
}

/** `add`, `remove`, `import`, `approve`, `pins`. */
function editCommands(run: RunLazy): Command[] {
  return [addCommand(run), removeCommand(run), importCommand(run), approveCommand(run), pinsCommand(run)];
}

function addCommand(run: RunLazy): Command {
  return withFlags(
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
  );
}

function removeCommand(run: RunLazy): Command {
  return withFlags(
    new Command("remove")
      .description("Remove a server from the project or user file")
      .argument("<name>")
      .addOption(new Option("-s, --scope <scope>", "Only this file").choices(["project", "user"])),
    ["cwd"],
  ).action((name, options) =>
    run(() => import("./commands/mcp-edit").then((m) => m.mcpRemoveCommand), [name, options]),
  );
}

function importCommand(run: RunLazy): Command {
  return withFlags(
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
  ).action((options) => run(() => import("./commands/mcp-edit").then((m) => m.mcpImportCommand), [options]));
}

function approveCommand(run: RunLazy): Command {
  return withFlags(
    new Command("approve")
      .description(
        "Approve this project's MCP files written by other tools (.mcp.json, .vscode/mcp.json, ...) so their servers start; with a server name, pin its definitions as they are now (showing what changed since they were pinned)",
      )
      .argument("[server]", "Pin this server's tools, prompts, resources and ui:// bodies as it lists them now")
      .option("--tool <name>", "Only this tool of the server"),
    ["mcp", "cwd", "json"],
  ).action((server, options) =>
    run(() => import("./commands/mcp-approve").then((m) => m.mcpApproveCommand), [server, options]),
  );
}

function pinsCommand(run: RunLazy): Command {
  return withFlags(
    new Command("pins")
      .description("The pinned definitions of each server (from the lock file beside its config), without connecting")
      .argument("[server]"),
    CONFIG_FLAGS,
  ).action((server, options) =>
    run(() => import("./commands/mcp-pins").then((m) => m.mcpPinsCommand), [server, options]),
  );
}

function serveCommand(run: RunLazy): Command {
  return withFlags(
    withGatewayFlags(new Command("serve"))
      .description(
        "Serve the deck and every mounted server as one MCP server. Default profile authoring: read-only built-ins, and only the mounted tools their servers annotate readOnlyHint: true (--profile survey publishes every tool)",
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
        "HTTP without per-process state (2025-era clients too), for replicas behind a load balancer; pins come from the lock files shipped beside the config, and are never written",
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
  ).action((options) => run(() => import("./commands/mcp-serve").then((m) => m.mcpServeCommand), [options]));
}

function logsCommand(run: RunLazy): Command {
  return withFlags(
    new Command("logs")
      .description("Show a server's stderr log from its latest run")
      .argument("<name>")
      .option("-n, --lines <n>", "Only the last n lines")
      .option("--all", "Every kept run's log, oldest first (default: the latest run)"),
    ["log-dir", "session-dir"],
  ).action((name, options) => run(() => import("./commands/mcp-logs").then((m) => m.mcpLogsCommand), [name, options]));
}

/** `login`, `logout`. */
function signInCommands(run: RunLazy): Command[] {
  return [
    withFlags(
      new Command("login")
        .description("Sign in to a remote server (OAuth): opens the browser, or prints the URL to open")
        .argument("<name>")
        .option("--no-browser", "Print the sign-in URL instead of opening a browser"),
      ["mcp", "cwd"],
    ).action((name, options) =>
      run(() => import("./commands/mcp-login").then((m) => m.mcpLoginCommand), [name, options]),
    ),
    withFlags(new Command("logout").description("Forget the sign-in stored for a server").argument("<name>"), [
      "cwd",
    ]).action((name, options) =>
      run(() => import("./commands/mcp-login").then((m) => m.mcpLogoutCommand), [name, options]),
    ),
  ];
}
