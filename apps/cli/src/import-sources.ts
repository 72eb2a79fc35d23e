/**
 * Where other MCP clients keep their server lists, and how to read the raw
 * rows out of each. Rows are copied as written (so `${VAR}` references stay
 * references, not expanded secrets); `indusr`'s loader reads every one of
 * these row dialects.
 */
import fs from "node:fs";
import path from "node:path";
import { parse, type ParseError } from "jsonc-parser";

export const IMPORT_CLIENTS = ["claude-desktop", "claude-code", "vscode", "cursor", "gemini"] as const;
export type ImportClient = (typeof IMPORT_CLIENTS)[number];

export interface ImportPlace {
  readonly file: string;
  /** Path to the servers object inside the file, e.g. `["mcpServers"]`. */
  readonly at: readonly string[];
}

export interface ImportEnv {
  readonly cwd: string;
  readonly home: string;
  readonly platform: NodeJS.Platform;
  readonly appData?: string;
  readonly xdgConfigHome?: string;
}

/** The files each client reads, most specific first. */
export function importPlaces(client: ImportClient, env: ImportEnv): ImportPlace[] {
  const xdg = env.xdgConfigHome ?? path.join(env.home, ".config");
  const appSupport =
    env.platform === "darwin"
      ? path.join(env.home, "Library", "Application Support")
      : env.platform === "win32"
        ? (env.appData ?? path.join(env.home, "AppData", "Roaming"))
        : xdg;
  switch (client) {
    case "claude-desktop":
      return [{ file: path.join(appSupport, "Claude", "claude_desktop_config.json"), at: ["mcpServers"] }];
    case "claude-code":
      return [
        { file: path.join(env.cwd, ".mcp.json"), at: ["mcpServers"] },
        { file: path.join(env.home, ".claude.json"), at: ["projects", env.cwd, "mcpServers"] },
        { file: path.join(env.home, ".claude.json"), at: ["mcpServers"] },
      ];
    case "vscode":
      return [
        { file: path.join(env.cwd, ".vscode", "mcp.json"), at: ["servers"] },
        { file: path.join(appSupport, "Code", "User", "mcp.json"), at: ["servers"] },
        { file: path.join(appSupport, "Code", "User", "settings.json"), at: ["mcp", "servers"] },
      ];
    case "cursor":
      return [
        { file: path.join(env.cwd, ".cursor", "mcp.json"), at: ["mcpServers"] },
        { file: path.join(env.home, ".cursor", "mcp.json"), at: ["mcpServers"] },
      ];
    case "gemini":
      return [
        { file: path.join(env.cwd, ".gemini", "settings.json"), at: ["mcpServers"] },
        { file: path.join(env.home, ".gemini", "settings.json"), at: ["mcpServers"] },
      ];
  }
}

export interface ImportedRow {
  readonly name: string;
  readonly row: Record<string, unknown>;
  readonly file: string;
  /** Notes about what was changed or cannot carry over. */
  readonly notes: readonly string[];
}

/** VS Code writes `${env:NAME}`; indusr (like Claude Code) writes `${NAME}`. */
function rewriteVars(value: unknown, notes: string[]): unknown {
  if (typeof value === "string") {
    if (/\$\{input:[^}]*\}/.test(value)) notes.push(`"${value}" asks VS Code for input at start; set it by hand`);
    return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, "${$1}");
  }
  if (Array.isArray(value)) return value.map((v) => rewriteVars(v, notes));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteVars(v, notes)]));
  }
  return value;
}

/** Reads one place; missing files give no rows, unreadable ones an error. */
export function readImportPlace(place: ImportPlace): { rows: ImportedRow[]; error?: string } {
  let text: string;
  try {
    text = fs.readFileSync(place.file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { rows: [] };
    return { rows: [], error: `${place.file}: cannot read: ${(error as Error).message}` };
  }
  const errors: ParseError[] = [];
  let node: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return { rows: [], error: `${place.file}: not valid JSON; skipped` };
  for (const key of place.at)
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  if (node === undefined) return { rows: [] };
  if (!node || typeof node !== "object" || Array.isArray(node))
    return { rows: [], error: `${place.file}: ${place.at.join(".")} is not an object; skipped` };
  const rows: ImportedRow[] = [];
  for (const [name, raw] of Object.entries(node as Record<string, unknown>)) {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) continue;
    const notes: string[] = [];
    rows.push({ name, row: rewriteVars(raw, notes) as Record<string, unknown>, file: place.file, notes });
  }
  return { rows };
}
