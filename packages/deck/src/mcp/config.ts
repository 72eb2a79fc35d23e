/**
 * MCP config discovery. Reads indus's own files and every other client's
 * (Claude Desktop and Code, VS Code, Cursor, Gemini, Codex TOML, opencode,
 * Windsurf) into validated `ServerConfig`s. Each file is read in its client's
 * dialect, placeholders are expanded or the server is refused, a bad row is
 * skipped, and nothing ever throws: every problem comes back as a diagnostic
 * naming the file and the row.
 */
import fs from "node:fs";
import path from "node:path";
import { approvedRows } from "./approval";
import { ConfigReader } from "./config-reader";
import type { McpConfigLoad, McpConfigScope, McpLoadOptions, SearchPath } from "./config-types";
import type { McpDialect } from "./dialect";
import { homeOf } from "./materialize";
import type { EnvLookup } from "./placeholders";

/** The discovery locations, in precedence order. `env` supplies HOME and XDG_CONFIG_HOME. */
export function mcpConfigSearchPaths(cwd: string, env: EnvLookup = process.env): SearchPath[] {
  const home = homeOf(env);
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  const project = path.resolve(cwd);
  const foreign = (rel: string): SearchPath => ({ scope: "project", file: path.join(project, rel), foreign: true });
  return [
    { scope: "project", file: path.join(project, ".indusvx", "mcp.json"), foreign: false },
    foreign(".mcp.json"),
    foreign(path.join(".vscode", "mcp.json")),
    foreign(path.join(".cursor", "mcp.json")),
    // The dispatch seed: `.dispatch/mcp.json` wins over `opencode.json`'s `mcp` block.
    foreign(path.join(".dispatch", "mcp.json")),
    foreign("opencode.json"),
    { scope: "user", file: path.join(xdg, "indusvx", "mcp.json"), foreign: false },
    { scope: "legacy", file: path.join(home, ".indusvx", "agent", "mcp.json"), foreign: false },
    { scope: "legacy", file: path.join(home, ".indusvx", "agent", "mcp-servers.json"), foreign: false },
  ];
}

/**
 * An existing file is read on its own; a directory is treated as the cwd and
 * the search paths are merged in order. Never throws.
 */
export function loadMcpConfig(pathOrCwd: string, options: McpLoadOptions = {}): McpConfigLoad {
  const env = options.env ?? process.env;
  const target = path.resolve(pathOrCwd);
  const acc = new ConfigReader(env, options.inputs ?? {});
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(target);
  } catch {
    stat = undefined;
  }
  if (stat?.isFile()) {
    const cwd = path.resolve(options.cwd ?? process.cwd());
    acc.searched.push(target);
    acc.readFile({ file: target, scope: "explicit", project: projectOfFile(target, cwd) });
  } else if (stat?.isDirectory()) {
    for (const place of mcpConfigSearchPaths(target, env)) {
      acc.searched.push(place.file);
      if (!fs.existsSync(place.file)) continue;
      const ask = place.foreign && options.approval !== "skip";
      const approvals = ask ? { approvals: approvedRows(target, place.file, env) } : {};
      acc.readFile({ file: place.file, scope: place.scope, project: target, ...approvals });
    }
  } else {
    acc.searched.push(target);
    acc.fileProblem(target, "missing", "no such file or directory");
  }
  return acc.result();
}

/** Parses one config text (already read) as if it were `file`. Never throws. */
export function parseMcpConfigText(
  text: string,
  file: string,
  options: McpLoadOptions & { scope?: McpConfigScope; dialect?: McpDialect } = {},
): McpConfigLoad {
  const env = options.env ?? process.env;
  const acc = new ConfigReader(env, options.inputs ?? {});
  const resolved = path.resolve(file);
  acc.parseText(text, {
    file: resolved,
    scope: options.scope ?? "explicit",
    project: projectOfFile(resolved, path.resolve(options.cwd ?? process.cwd())),
    ...(options.dialect ? { dialect: options.dialect } : {}),
  });
  return acc.result();
}

/** `<p>/.vscode/mcp.json` belongs to `<p>`; a file elsewhere belongs to the cwd. */
function projectOfFile(file: string, cwd: string): string {
  const parent = path.basename(path.dirname(file));
  if ([".vscode", ".cursor", ".indusvx", ".dispatch"].includes(parent)) return path.dirname(path.dirname(file));
  if ([".mcp.json", "opencode.json", "opencode.jsonc"].includes(path.basename(file))) return path.dirname(file);
  return cwd;
}
