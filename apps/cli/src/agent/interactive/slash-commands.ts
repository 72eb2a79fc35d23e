/**
 * The interactive session's slash commands: `/tools`, `/mcp` (status,
 * reconnect, enable, disable), `/status`, `/compact`, `/resume` (in
 * `session-commands.ts`), `/clear`, `/help`, `/exit`.
 */
import type { BootedDeck, ServerReport } from "../../boot/boot-types";
import type { Style } from "../render";
import { startupWarnings } from "../../boot/startup-warnings";
import type { SessionCheckpoints } from "../session/checkpoints";
import type { AgentSession } from "../session/session";
import type { AgentClientHost } from "../host/agent-client-host";
import { resolveDir } from "../host/add-dir";
import type { AppHost } from "../../apps/app-host";
import { compactCommand, resumeCommand, statusCommand, type SessionCommandContext } from "./session-commands";
import type { BackgroundTasks } from "../session/background-tasks";
import { tasksCommand } from "./tasks-command";

/** Run a session command with its context, or say why it cannot run here. */
function withSession(
  run: (args: readonly string[], ctx: SessionCommandContext) => Promise<void> | void,
): (args: readonly string[], ctx: SlashContext) => Promise<void> | void {
  return (args, ctx) =>
    ctx.sessionCommands ? run(args, ctx.sessionCommands) : ctx.print("Not available in this session.");
}

export interface SlashContext {
  readonly session: AgentSession;
  /** What `write`/`edit` changed per prompt; absent when nothing is checkpointed. */
  readonly checkpoints?: SessionCheckpoints;
  readonly deck: BootedDeck;
  readonly style: Style;
  print(text: string): void;
  exit(): void;
  /** The session's client host (its roots), when it has one. */
  readonly host?: AgentClientHost;
  /** MCP App views of this session's tool results (`/app`). */
  readonly apps?: AppHost;
  /** What `/status`, `/compact` and `/resume` need; absent: they say they are unavailable. */
  readonly sessionCommands?: SessionCommandContext;
  /** Calls running as tasks in the background (`/tasks`). */
  readonly background?: BackgroundTasks;
}

interface SlashCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  run(args: readonly string[], ctx: SlashContext): Promise<void> | void;
}

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text + " ".repeat(width - text.length);
}

function firstLine(text: string, max: number): string {
  const line = (text.split("\n").find((l) => l.trim().length > 0) ?? "").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function toolsCommand(_args: readonly string[], ctx: SlashContext): void {
  const descriptors = ctx.deck.box.descriptors();
  if (descriptors.length === 0) {
    ctx.print("No tools in this session.");
    return;
  }
  const width = Math.min(44, Math.max(...descriptors.map((d) => d.name.length)) + 2);
  ctx.print(ctx.style.bold(`${pad("tool", width)}${pad("origin", 10)}${pad("ro", 4)}description`));
  for (const d of descriptors) {
    const origin = ctx.deck.origin(d.name);
    ctx.print(
      `${pad(d.name, width)}${pad(origin, 10)}${pad(d.annotations?.readOnlyHint ? "✓" : "", 4)}${ctx.style.dim(firstLine(d.description, 70))}`,
    );
  }
  ctx.print(
    ctx.style.dim(
      `${descriptors.length} tools${ctx.session.inPlanMode ? " · plan mode: only read-only tools run" : ""}`,
    ),
  );
}

function serverLine(ctx: SlashContext, s: ReturnType<BootedDeck["mcp"]["servers"]>[number], disabled: boolean): string {
  const mark = disabled
    ? ctx.style.dim("○")
    : s.phase === "ready"
      ? ctx.style.green("✓")
      : s.phase === "faulted"
        ? ctx.style.red("✗")
        : ctx.style.yellow("…");
  const detail =
    s.phase === "ready"
      ? `${s.toolCount} tool${s.toolCount === 1 ? "" : "s"}${s.connectMs !== undefined ? ` · ${s.connectMs} ms` : ""}`
      : s.fault
        ? `${s.fault.kind}: ${firstLine(s.fault.message, 80)}`
        : s.phase;
  return `${mark} ${pad(s.id, 20)}${pad(s.transport, 17)}${disabled ? "disabled for this session" : detail}`;
}

const disabledServers = new WeakMap<AgentSession, Set<string>>();

async function mcpCommand(args: readonly string[], ctx: SlashContext): Promise<void> {
  const disabled = disabledServers.get(ctx.session) ?? new Set<string>();
  disabledServers.set(ctx.session, disabled);
  const [action, id] = args;
  const servers = ctx.deck.mcp.servers();
  if (action === undefined || action === "status" || action === "list") return mcpStatus(ctx, servers, disabled);
  if (!["reconnect", "enable", "disable"].includes(action)) {
    ctx.print(`Unknown /mcp action "${action}": use status, reconnect, enable or disable.`);
    return;
  }
  const known = servers.map((s) => s.id).join(", ") || "none";
  if (id === undefined) {
    ctx.print(`Usage: /mcp ${action} <server>  (servers: ${known})`);
    return;
  }
  if (!servers.some((s) => s.id === id)) {
    ctx.print(`No server "${id}" (servers: ${known}).`);
    return;
  }
  if (action === "reconnect") return mcpReconnect(ctx, id, disabled);
  const enable = action === "enable";
  ctx.deck.mcp.setEnabled(id, enable);
  ctx.session.setServerEnabled(id, enable);
  if (enable) disabled.delete(id);
  else disabled.add(id);
  ctx.print(
    `${id} ${enable ? "enabled" : "disabled"} for this session (${ctx.deck.box.descriptors().length} tools now).`,
  );
}

/** `/mcp`: config warnings, then one line per server (a failed one with its last stderr lines). */
function mcpStatus(ctx: SlashContext, servers: readonly ServerReport[], disabled: ReadonlySet<string>): void {
  const warnings = startupWarnings(ctx.deck.diagnostics, []);
  for (const line of warnings) ctx.print(`${ctx.style.yellow("warning:")} ${line}`);
  if (servers.length === 0) {
    ctx.print(
      warnings.length > 0
        ? "No MCP servers are mounted: fix the config above (or pass --mcp)."
        : "No MCP servers are mounted (add one with `indusr mcp add`, or pass --mcp).",
    );
    return;
  }
  for (const s of servers) {
    ctx.print(serverLine(ctx, s, disabled.has(s.id)));
    if (s.phase === "faulted" && s.stderrTail && s.stderrTail.length > 0) {
      for (const line of s.stderrTail.slice(-3)) ctx.print(ctx.style.dim(`    ${line}`));
    }
  }
  ctx.print(ctx.style.dim("/mcp reconnect <server> · /mcp disable <server> · /mcp enable <server>"));
}

async function mcpReconnect(ctx: SlashContext, id: string, disabled: ReadonlySet<string>): Promise<void> {
  ctx.print(ctx.style.dim(`reconnecting ${id}…`));
  try {
    const report = await ctx.deck.mcp.reconnect(id);
    ctx.print(serverLine(ctx, report, disabled.has(id)));
  } catch (error) {
    ctx.print(ctx.style.red(`✗ ${id}: ${(error as Error).message}`));
  }
}

function rewindCommand(args: readonly string[], ctx: SlashContext): void {
  const store = ctx.checkpoints;
  const prompts = store?.list() ?? [];
  if (!store || prompts.length === 0) {
    ctx.print("Nothing to rewind yet: no prompt has run in this session.");
    return;
  }
  const index = Number(args[0]);
  if (args[0] === undefined || !Number.isInteger(index) || index < 1 || index > prompts.length) {
    for (const p of prompts)
      ctx.print(
        `${pad(String(p.index), 4)}${pad(`${p.files.size} file${p.files.size === 1 ? "" : "s"}`, 10)}${ctx.style.dim(firstLine(p.prompt, 70))}`,
      );
    ctx.print(ctx.style.dim("/rewind <n> puts back every file changed since prompt n, as it was before it"));
    return;
  }
  const done = store.rewind(index);
  if (done.length === 0) ctx.print(`No file changed since prompt ${index}.`);
  for (const file of done) ctx.print(`${file.action === "deleted" ? "deleted " : "restored"} ${file.path}`);
}

/** `/add-dir [path]`: list the roots, or add a folder and tell the servers their roots changed. */
async function addDirCommand(args: readonly string[], ctx: SlashContext): Promise<void> {
  const roots = ctx.host?.roots;
  if (!roots) {
    ctx.print("This session has no roots to add to.");
    return;
  }
  const folders = roots.folders();
  if (args.length === 0) {
    for (const folder of folders) ctx.print(`  ${folder}`);
    ctx.print(ctx.style.dim("/add-dir <path> adds a folder; MCP servers get every folder here as a root"));
    return;
  }
  const resolved = resolveDir(args.join(" "), folders[0] ?? process.cwd());
  if ("error" in resolved) {
    ctx.print(ctx.style.red(`✗ /add-dir: ${resolved.error}`));
    return;
  }
  if (!roots.add(resolved.dir)) {
    ctx.print(`${resolved.dir} is already a root.`);
    return;
  }
  const told = (await ctx.deck.mcp.notifyRootsChanged?.()) ?? 0;
  ctx.print(
    `Added ${resolved.dir} (${roots.folders().length} roots${told > 0 ? `; told ${told} server${told === 1 ? "" : "s"}` : ""}).`,
  );
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "help", usage: "/help", summary: "This list", run: (_args, ctx) => helpCommand(ctx) },
  {
    name: "tools",
    usage: "/tools",
    summary: "Every tool the model can call, with origin and read-only flag",
    run: toolsCommand,
  },
  {
    name: "mcp",
    usage: "/mcp [status | reconnect <server> | enable <server> | disable <server>]",
    summary: "MCP server status and control",
    run: mcpCommand,
  },
  {
    name: "tasks",
    usage: "/tasks [cancel <n>]",
    summary: "Calls running as tasks in the background; cancel one on its server",
    run: (args, ctx) => tasksCommand(args, ctx.background, (text) => ctx.print(text), ctx.style),
  },
  {
    name: "app",
    usage: "/app [n]",
    summary: "Open a tool's MCP App view (the latest, or app n) in the browser, on a local page",
    run: (args, ctx) => (ctx.apps ? ctx.apps.open(args[0]) : ctx.print("MCP Apps are not available here.")),
  },
  {
    name: "rewind",
    usage: "/rewind [n]",
    summary: "List prompts; with n, put back every file write/edit changed since prompt n",
    run: rewindCommand,
  },
  {
    name: "add-dir",
    usage: "/add-dir [path]",
    summary: "List the session's folders, or add one (MCP servers get them as roots)",
    run: addDirCommand,
  },
  {
    name: "status",
    usage: "/status",
    summary: "Model, context use, instructions loaded (AGENTS.md, CLAUDE.md), servers, saved permissions",
    run: withSession((_args, ctx) => statusCommand(ctx)),
  },
  {
    name: "compact",
    usage: "/compact [focus]",
    summary: "Summarise the older turns now to free context (the transcript keeps them)",
    run: withSession(compactCommand),
  },
  {
    name: "resume",
    usage: "/resume [id]",
    summary: "Go on with an earlier conversation of this folder (a list to pick from without an id)",
    run: withSession(resumeCommand),
  },
  {
    name: "clear",
    usage: "/clear",
    summary: "Start a fresh conversation (the transcript keeps the old one)",
    run: (_args, ctx) => {
      ctx.session.clear();
      ctx.print("Conversation cleared.");
    },
  },
  {
    name: "exit",
    usage: "/exit",
    summary: "Leave (also /quit, Ctrl-D, or Ctrl-C twice)",
    run: (_args, ctx) => ctx.exit(),
  },
];

function helpCommand(ctx: SlashContext): void {
  for (const command of SLASH_COMMANDS) ctx.print(`${pad(command.usage, 68)}${ctx.style.dim(command.summary)}`);
  ctx.print(
    ctx.style.dim("Ctrl-C interrupts the running turn and cancels its tools; at an empty prompt, Ctrl-C twice leaves."),
  );
}

export async function runSlashCommand(line: string, ctx: SlashContext): Promise<void> {
  const [head, ...args] = line.slice(1).trim().split(/\s+/);
  const name = (head ?? "").toLowerCase();
  const command =
    SLASH_COMMANDS.find((c) => c.name === name) ??
    (name === "quit" ? SLASH_COMMANDS.find((c) => c.name === "exit") : undefined);
  if (!command) {
    ctx.print(`Unknown command /${name}: /help lists them.`);
    return;
  }
  await command.run(args, ctx);
}
