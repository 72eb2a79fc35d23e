/**
 * Where other MCP clients keep their server lists (most specific first).
 * Reading them is the deck's job (`readPeerFile`, in each client's dialect);
 * this file only knows the places.
 */
import path from "node:path";
import { MCP_DIALECTS, type McpDialect } from "@indus/deck/mcp-config";

/** Every dialect the deck reads, except indus's own. */
export type ImportClient = Exclude<McpDialect, "indus">;
export const IMPORT_CLIENTS: readonly ImportClient[] = MCP_DIALECTS.filter((d): d is ImportClient => d !== "indus");

export interface ImportEnv {
  readonly cwd: string;
  readonly home: string;
  readonly platform: NodeJS.Platform;
  readonly appData?: string;
  readonly xdgConfigHome?: string;
}

/** The dialect each client's files are read in. */
export const DIALECT_OF: Readonly<Record<ImportClient, McpDialect>> = {
  "claude-desktop": "claude-desktop",
  "claude-code": "claude-code",
  vscode: "vscode",
  cursor: "cursor",
  gemini: "gemini",
  codex: "codex",
  opencode: "opencode",
  windsurf: "windsurf",
};

/** The files each client reads, most specific first. */
export function importPlaces(client: ImportClient, env: ImportEnv): string[] {
  const xdg = env.xdgConfigHome ?? path.join(env.home, ".config");
  const appSupport =
    env.platform === "darwin"
      ? path.join(env.home, "Library", "Application Support")
      : env.platform === "win32"
        ? (env.appData ?? path.join(env.home, "AppData", "Roaming"))
        : xdg;
  switch (client) {
    case "claude-desktop":
      return [path.join(appSupport, "Claude", "claude_desktop_config.json")];
    case "claude-code":
      // ~/.claude.json holds this project's local servers and the user's servers.
      return [path.join(env.cwd, ".mcp.json"), path.join(env.home, ".claude.json")];
    case "vscode":
      return [
        path.join(env.cwd, ".vscode", "mcp.json"),
        path.join(appSupport, "Code", "User", "mcp.json"),
        path.join(appSupport, "Code", "User", "settings.json"),
      ];
    case "cursor":
      return [path.join(env.cwd, ".cursor", "mcp.json"), path.join(env.home, ".cursor", "mcp.json")];
    case "gemini":
      return [path.join(env.cwd, ".gemini", "settings.json"), path.join(env.home, ".gemini", "settings.json")];
    case "codex":
      return [path.join(env.cwd, ".codex", "config.toml"), path.join(env.home, ".codex", "config.toml")];
    case "opencode":
      return [
        path.join(env.cwd, "opencode.json"),
        path.join(env.cwd, "opencode.jsonc"),
        path.join(xdg, "opencode", "opencode.json"),
      ];
    case "windsurf":
      return [path.join(env.home, ".codeium", "windsurf", "mcp_config.json")];
  }
}
