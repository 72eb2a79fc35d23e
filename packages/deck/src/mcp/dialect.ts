/**
 * Which client wrote a config file. The same key means different things in
 * different clients (Gemini's `url` is SSE, opencode's `timeout` bounds the
 * tool listing), and each has its own placeholder syntax, so rows are read in
 * the dialect of the file they came from.
 */
import path from "node:path";

export const MCP_DIALECTS = [
  "indus",
  "claude-desktop",
  "claude-code",
  "vscode",
  "cursor",
  "gemini",
  "codex",
  "opencode",
  "windsurf",
] as const;
export type McpDialect = (typeof MCP_DIALECTS)[number];

/** The dialect of `file`, from its name and place (content is not needed). */
export function dialectOfFile(file: string): McpDialect {
  const base = path.basename(file).toLowerCase();
  const parent = path.basename(path.dirname(file)).toLowerCase();
  if (base.endsWith(".toml")) return "codex";
  if (base === "opencode.json" || base === "opencode.jsonc") return "opencode";
  if (base === ".claude.json" || base === ".mcp.json") return "claude-code";
  if (base === "claude_desktop_config.json") return "claude-desktop";
  if (base === "mcp_config.json" && parent === "windsurf") return "windsurf";
  if (parent === ".gemini" && base === "settings.json") return "gemini";
  if (parent === ".vscode" || (parent === "user" && base === "mcp.json")) return "vscode";
  if (parent === ".cursor") return "cursor";
  return "indus";
}
