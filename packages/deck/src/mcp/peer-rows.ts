/**
 * Where each client keeps its server rows inside its file, and which of them
 * that client has switched off. Claude Code's `~/.claude.json` holds user
 * servers at the top and per-project ("local") servers under
 * `projects[<path>]`, with per-project disable lists that stay honoured here.
 */
import fs from "node:fs";
import path from "node:path";
import { isRecord } from "@indus/contract";
import type { McpDialect } from "./dialect";
import { parseJsonc } from "./jsonc";

export type Row = Readonly<Record<string, unknown>>;

export interface PeerRow {
  /** The server name (object key, or `name`/`id` of an array row). */
  readonly name: string | undefined;
  readonly value: unknown;
  /** Where the row sits in the file: `mcpServers.github`, `projects["/p"].mcpServers.x`. */
  readonly row: string;
  /** Switched off by the client's own state (Claude Code's disable lists). */
  readonly disabledBy?: string;
}

/** One `${input:id}` definition (VS Code `inputs`). */
export interface InputDefinition {
  readonly id: string;
  readonly description?: string;
  readonly password?: boolean;
}

export interface PeerRows {
  readonly rows: PeerRow[];
  /** Problems with the file's shape (not with one row). */
  readonly problems: string[];
  readonly inputs: InputDefinition[];
  /** The file held none of the keys servers live under. */
  readonly empty: boolean;
}

function label(prefix: string, name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? `${prefix}.${name}` : `${prefix}[${JSON.stringify(name)}]`;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Servers a client switched off, and the reason to show for them. */
interface Disabled {
  readonly names: ReadonlySet<string>;
  readonly why: string;
}

const NOT_DISABLED: Disabled = { names: new Set<string>(), why: "" };

function rowsOfBlock(block: unknown, prefix: string, problems: string[], disabled: Disabled = NOT_DISABLED) {
  const rows: PeerRow[] = [];
  const add = (name: string | undefined, value: unknown, row: string) =>
    rows.push({
      name,
      value,
      row,
      ...(name !== undefined && disabled.names.has(name) ? { disabledBy: disabled.why } : {}),
    });
  if (Array.isArray(block)) {
    block.forEach((value, i) => {
      const name = isRecord(value) ? (value.name ?? value.id) : undefined;
      add(typeof name === "string" ? name : undefined, value, `${prefix}[${i}]`);
    });
  } else if (isRecord(block)) {
    for (const [name, value] of Object.entries(block)) add(name, value, label(prefix, name));
  } else {
    problems.push(`"${prefix}" must be an array or an object of servers; nothing loaded from it`);
  }
  return rows;
}

/** Claude Code's per-project state in `~/.claude.json`, for a project folder. */
function claudeProject(doc: Row, project: string): Row | undefined {
  const projects = doc.projects;
  if (!isRecord(projects)) return undefined;
  const entry = projects[project] ?? projects[project.replace(/\\/g, "/")];
  return isRecord(entry) ? entry : undefined;
}

function readClaudeState(home: string): Row | undefined {
  try {
    const doc = parseJsonc(fs.readFileSync(path.join(home, ".claude.json"), "utf8"));
    return isRecord(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

function inputsOf(block: unknown): InputDefinition[] {
  if (!Array.isArray(block)) return [];
  return block.filter(isRecord).flatMap((i) =>
    typeof i.id === "string"
      ? [
          {
            id: i.id,
            ...(typeof i.description === "string" ? { description: i.description } : {}),
            ...(i.password === true ? { password: true } : {}),
          },
        ]
      : [],
  );
}

/** Where a parsed file sits: the file, the project folder it belongs to, the home folder. */
export interface PeerFilePlace {
  readonly file: string;
  /** The folder a project-scoped file belongs to (and the key into `~/.claude.json` projects). */
  readonly project: string;
  /** Finds Claude Code's state for a `.mcp.json`. */
  readonly home: string;
}

/** The rows of one parsed file. */
export function peerRowsOf(doc: Row, dialect: McpDialect, place: PeerFilePlace): PeerRows {
  const base = path.basename(place.file);
  if (dialect === "claude-code" && base === ".claude.json") return claudeStateRows(doc, place.project);
  if (dialect === "claude-code" && base === ".mcp.json") return claudeProjectFileRows(doc, place);
  const problems: string[] = [];
  const rows: PeerRow[] = [];
  const keys: readonly string[] =
    dialect === "codex"
      ? ["mcp_servers"]
      : dialect === "opencode"
        ? ["mcp"]
        : ["servers", "mcpServers", "mcp", "mcp_servers"];
  let found = false;
  for (const key of keys) {
    const block = doc[key];
    if (block === undefined) continue;
    found = true;
    // VS Code's settings.json nests the whole mcp.json under "mcp".
    if (key === "mcp" && dialect === "vscode" && isRecord(block) && block.servers !== undefined)
      rows.push(...rowsOfBlock(block.servers, "mcp.servers", problems));
    else rows.push(...rowsOfBlock(block, key, problems));
  }
  const inputs = inputsOf(doc.inputs ?? (isRecord(doc.mcp) ? doc.mcp.inputs : undefined));
  return { rows, problems, inputs, empty: !found };
}

/** `~/.claude.json`: the project's own servers, then the user's, minus the project's disabled list. */
function claudeStateRows(doc: Row, project: string): PeerRows {
  const problems: string[] = [];
  const rows: PeerRow[] = [];
  const local = claudeProject(doc, project);
  const disabled: Disabled = {
    names: new Set(stringList(local?.disabledMcpServers)),
    why: `disabled for this project in Claude Code (projects[${JSON.stringify(project)}].disabledMcpServers)`,
  };
  if (local && local.mcpServers !== undefined)
    rows.push(...rowsOfBlock(local.mcpServers, `projects[${JSON.stringify(project)}].mcpServers`, problems, disabled));
  if (doc.mcpServers !== undefined) rows.push(...rowsOfBlock(doc.mcpServers, "mcpServers", problems, disabled));
  return { rows, problems, inputs: [], empty: rows.length === 0 && problems.length === 0 };
}

/** A project's `.mcp.json`, minus what Claude Code's state disables for that project. */
function claudeProjectFileRows(doc: Row, { file, home }: PeerFilePlace): PeerRows {
  const problems: string[] = [];
  const state = readClaudeState(home);
  const disabled: Disabled = {
    names: new Set(stringList(state ? claudeProject(state, path.dirname(file))?.disabledMcpjsonServers : [])),
    why: "disabled for this project in Claude Code (disabledMcpjsonServers in ~/.claude.json)",
  };
  const rows = doc.mcpServers !== undefined ? rowsOfBlock(doc.mcpServers, "mcpServers", problems, disabled) : [];
  return { rows, problems, inputs: [], empty: doc.mcpServers === undefined };
}
