/**
 * The briefing (system prompt), composed after MCP attachment so it already
 * documents every tool the model can call: built-ins, app cards and each
 * mounted server's tools with that server's own `instructions`. Servers that
 * failed to start are named too, so the model does not promise their tools.
 */
import os from "node:os";
import type { ToolDescriptor } from "@indus/contract";
import type { ServerReport, ToolOrigin } from "../../boot/boot-types";
import { MAX_SERVER_INSTRUCTIONS, SERVER_TEXT_RULE, fenceServerText, quotedServerText } from "../../trust/server-text";
import { instructionsSection, type InstructionFile } from "./project-instructions";

export interface BriefingInput {
  readonly cwd: string;
  /** Folders the user added (`--add-dir`, `/add-dir`) besides the working directory. */
  readonly addedDirs?: readonly string[];
  readonly descriptors: readonly ToolDescriptor[];
  readonly origin: (name: string) => ToolOrigin;
  readonly servers: readonly ServerReport[];
  /** Servers switched off with `/mcp disable` (their tools are hidden). */
  readonly disabled?: ReadonlySet<string>;
  /** Servers whose tools are reached only through `saas-action` discover/execute. */
  readonly deferred?: ReadonlySet<string>;
  readonly planMode: boolean;
  readonly now?: Date;
  /** A `task` sub-agent gets its own opening: one objective, a self-contained final answer. */
  readonly role?: "main" | "sub-agent";
  /** The user's and the project's `AGENTS.md` / `CLAUDE.md`, each under a heading naming its file. */
  readonly instructions?: readonly InstructionFile[];
}

/** One server's instructions and tool list, its own words quoted (see `server-text.ts`). */
function serverLines(instructions: string | undefined, tools: readonly ToolDescriptor[]): string[] {
  const said = instructions?.trim();
  const lines = said ? ["Instructions from the server:", quotedServerText(said, MAX_SERVER_INSTRUCTIONS)] : [];
  for (const d of tools)
    lines.push(
      `- ${d.name}${d.annotations?.readOnlyHint ? " (read-only)" : ""}: ${quotedServerText(firstLine(d.description))}`,
    );
  return lines;
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim().length > 0) ?? "";
  return line.length > 140 ? `${line.slice(0, 137)}…` : line;
}

function serverOf(name: string, servers: readonly ServerReport[]): string | undefined {
  // Longest id first: `a__b` must not be claimed by a server named `a` when `a__b`-prefixed ids exist.
  const ids = servers.map((s) => s.id).sort((x, y) => y.length - x.length);
  return ids.find((id) => name.startsWith(`${id}__`));
}

export function composeBriefing(input: BriefingInput): string {
  const local = input.descriptors.filter((d) => input.origin(d.name) !== "server");
  const remote = input.descriptors.filter((d) => input.origin(d.name) === "server");
  return [
    ...opening(input),
    ...builtinsSection(input, local),
    ...serversSection(input, remote),
    ...deferredSection(input, local),
    ...planSection(input, local),
    ...instructionsSection(input.instructions ?? []),
  ].join("\n");
}

/** Who the model is, where it works, how it should work, and what a refusal means. */
function opening(input: BriefingInput): string[] {
  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  const sub = input.role === "sub-agent";
  return [
    sub
      ? "You are a sub-agent of indusr: the main agent handed you one objective. You do not see its conversation; everything you were given is in the first message."
      : "You are indusr, a coding agent working in a user's project from their terminal.",
    `Working directory: ${input.cwd}`,
    ...(input.addedDirs && input.addedDirs.length > 0
      ? [`Also work in (added by the user): ${input.addedDirs.join(", ")}`]
      : []),
    `Platform: ${os.platform()} ${os.arch()} · Date: ${date}`,
    "",
    sub
      ? "Work through the tools below until the objective is met, then reply with a final answer that stands on its own: the main agent sees only that answer, not your tool calls."
      : "Work through the tools below: read before you edit, keep changes minimal, and check your work. When the task is done, reply with a short summary of what you did.",
    "",
    "# Permissions",
    'Read-only tools always run. Tools that change things may need the user\'s approval; a refused call comes back as a tool result starting with "Refused:". Do not retry a refused call unchanged: adapt, or explain what you would do.',
  ];
}

function toolLine(d: ToolDescriptor): string {
  return `- ${d.name}${d.annotations?.readOnlyHint ? " (read-only)" : ""}: ${firstLine(d.description)}`;
}

function builtinsSection(input: BriefingInput, local: readonly ToolDescriptor[]): string[] {
  if (input.descriptors.length === 0)
    return ["", "# Tools", "No tools are available in this session: answer from what you know."];
  if (local.length === 0) return [];
  return ["", "# Built-in tools", ...local.map(toolLine)];
}

/** Each mounted server's tools and instructions, or why it is unavailable; then tools no server claims. */
function serversSection(input: BriefingInput, remote: readonly ToolDescriptor[]): string[] {
  if (remote.length === 0 && input.servers.every((s) => input.deferred?.has(s.id))) return [];
  const out = [
    "",
    "# MCP servers",
    "These tools come from MCP servers the user mounted. Call them exactly like the built-ins; each is named <server>__<tool>.",
    SERVER_TEXT_RULE,
  ];
  for (const server of input.servers) {
    if (input.disabled?.has(server.id) || input.deferred?.has(server.id)) continue;
    out.push(
      ...serverBlock(
        server,
        remote.filter((d) => serverOf(d.name, input.servers) === server.id),
      ),
    );
  }
  const orphans = remote.filter((d) => serverOf(d.name, input.servers) === undefined);
  if (orphans.length > 0) {
    out.push("", "## other mounted tools");
    for (const d of orphans) out.push(`- ${d.name}: ${quotedServerText(firstLine(d.description))}`);
  }
  return out;
}

/** One server's heading and fenced text, or why it is unavailable. */
function serverBlock(server: ServerReport, tools: readonly ToolDescriptor[]): string[] {
  if (server.phase !== "ready") {
    const why = server.fault ? `${server.fault.kind}: ${firstLine(server.fault.message)}` : server.phase;
    return ["", `## ${server.id} (unavailable: ${why})`, "Its tools are not available in this session."];
  }
  return [
    "",
    `## ${server.id} (${tools.length} tool${tools.length === 1 ? "" : "s"})`,
    ...fenceServerText(server.id, serverLines(server.instructions, tools)),
  ];
}

function deferredSection(input: BriefingInput, local: readonly ToolDescriptor[]): string[] {
  const deferred = input.servers.filter(
    (s) => input.deferred?.has(s.id) && !input.disabled?.has(s.id) && s.phase === "ready",
  );
  if (deferred.length === 0) return [];
  const search = local.some((d) => d.name === "saas-action");
  return [
    "",
    "# Deferred MCP servers",
    search
      ? 'These servers\' tools are not in your tool list, to save context. Find one with saas-action (action "discover", query = what you need, vendor = the server), then run it with action "execute", slug = the tool\'s exact name, params = its arguments.'
      : "These servers' tools are not in your tool list, to save context.",
    ...deferred.map((s) => `- ${s.id} (${s.toolCount} tool${s.toolCount === 1 ? "" : "s"})`),
  ];
}

function planSection(input: BriefingInput, local: readonly ToolDescriptor[]): string[] {
  const hasPlanTools =
    local.some((d) => d.name === "enter_plan_mode") && local.some((d) => d.name === "exit_plan_mode");
  if (!hasPlanTools) return [];
  return [
    "",
    "# Plan mode",
    "For larger or riskier changes, call enter_plan_mode first: from then on only read-only tools run. Explore, then call exit_plan_mode with a complete plan (markdown). The user approves it before you change anything; the plan is saved with the session.",
    ...(input.planMode
      ? ["Plan mode is ON now: only read-only tools will run until the user approves your plan."]
      : []),
  ];
}
