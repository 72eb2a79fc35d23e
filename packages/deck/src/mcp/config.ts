/**
 * MCP config discovery. Reads the `.indusvx/mcp.json` family (or one explicit
 * file) into validated `ServerConfig`s, accepting what users paste from other
 * tools: `servers` as an array or an object, Claude/Cursor/Gemini
 * `mcpServers`, VS Code `type`, Dispatch `transport`/`disabled`, opencode
 * `mcp`. A bad row is skipped, a malformed file yields nothing, and nothing
 * ever throws; every problem comes back as a diagnostic naming file and row.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ServerConfig } from "@indus/contract";
import { parseServerConfig } from "@indus/contract";
import { type EnvLookup, expandVars } from "./expand";
import { parseJsonc } from "./jsonc";

export type McpConfigScope = "explicit" | "project" | "user" | "legacy";

export interface McpConfigDiagnostic {
  readonly file: string;
  /** The row, as a path into the file: `servers[2]`, `mcpServers.github`. */
  readonly row?: string;
  readonly message: string;
  readonly severity: "error" | "warning";
}

/** Where one loaded server came from. */
export interface McpServerOrigin {
  readonly file: string;
  readonly row: string;
  readonly scope: McpConfigScope;
}

export interface McpConfigLoad {
  /** Valid, enabled servers in precedence order; ids unique (the first definition wins). */
  readonly servers: ServerConfig[];
  readonly diagnostics: McpConfigDiagnostic[];
  /** Server id → where it was defined. */
  readonly origins: ReadonlyMap<string, McpServerOrigin>;
  /** Rows switched off with `enabled: false` / `disabled: true`. */
  readonly disabled: readonly ({ readonly name: string } & McpServerOrigin)[];
  /** Every file that was read (present and parsed or not), in order. */
  readonly files: readonly { readonly file: string; readonly scope: McpConfigScope }[];
}

/** The discovery locations, in precedence order. `env` supplies HOME and XDG_CONFIG_HOME. */
export function mcpConfigSearchPaths(
  cwd: string,
  env: EnvLookup = process.env,
): { scope: McpConfigScope; file: string }[] {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  return [
    { scope: "project", file: path.join(path.resolve(cwd), ".indusvx", "mcp.json") },
    { scope: "user", file: path.join(xdg, "indusvx", "mcp.json") },
    { scope: "legacy", file: path.join(home, ".indusvx", "agent", "mcp.json") },
    { scope: "legacy", file: path.join(home, ".indusvx", "agent", "mcp-servers.json") },
  ];
}

/**
 * An existing file is read on its own; a directory is treated as the cwd and
 * the search paths are merged in order. Never throws.
 */
export function loadMcpConfig(pathOrCwd: string, env: EnvLookup = process.env): McpConfigLoad {
  const acc = new Accumulator();
  const target = path.resolve(pathOrCwd);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(target);
  } catch {
    stat = undefined;
  }
  if (stat?.isFile()) {
    acc.readFile(target, "explicit", path.dirname(target), env);
  } else if (stat?.isDirectory()) {
    for (const { scope, file } of mcpConfigSearchPaths(target, env)) {
      if (fs.existsSync(file)) acc.readFile(file, scope, target, env);
    }
  } else {
    acc.diagnostics.push({ file: target, message: "no such file or directory", severity: "error" });
  }
  return acc.result();
}

/** Parses one config text (already read) as if it were `file`. Never throws. */
export function parseMcpConfigText(
  text: string,
  file: string,
  options: { env?: EnvLookup; baseDir?: string; scope?: McpConfigScope } = {},
): McpConfigLoad {
  const acc = new Accumulator();
  acc.parseText(
    text,
    file,
    options.scope ?? "explicit",
    options.baseDir ?? path.dirname(path.resolve(file)),
    options.env ?? process.env,
  );
  return acc.result();
}

// ------------------------------------------------------------------ rows

type Row = Readonly<Record<string, unknown>>;

const FIELDS = new Set([
  "name",
  "id",
  "transport",
  "type",
  "command",
  "args",
  "env",
  "environment",
  "cwd",
  "url",
  "httpUrl",
  "serverUrl",
  "headers",
  "enabled",
  "disabled",
  "startupTimeoutMs",
  "startup_timeout_ms",
  "startup_timeout_sec",
  "listTimeoutMs",
  "toolTimeoutMs",
  "tool_timeout_ms",
  "tool_timeout_sec",
  "timeout",
  "includeTools",
  "excludeTools",
  "enabled_tools",
  "disabled_tools",
  "reconnect",
  "oauth",
]);

/** Fields other tools write that have no meaning here: accepted without a warning. */
const FOREIGN = new Set([
  "description",
  "alwaysAllow",
  "autoApprove",
  "trust",
  "gallery",
  "version",
  "icon",
  "title",
  "$schema",
]);

const TRANSPORT_ALIASES: Readonly<Record<string, ServerConfig["transport"]>> = {
  stdio: "stdio",
  local: "stdio",
  sse: "sse",
  http: "streamable-http",
  "streamable-http": "streamable-http",
  streamable_http: "streamable-http",
  streamablehttp: "streamable-http",
  remote: "streamable-http",
};

class RowError extends Error {}

function asStringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new RowError(`${field}: must be an array of strings`);
  return value.map((v, i) => {
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    throw new RowError(`${field}.${i}: must be a string`);
  });
}

function asStringMap(value: unknown, field: string): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new RowError(`${field}: must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === "string") out[key] = v;
    else if (typeof v === "number" || typeof v === "boolean") out[key] = String(v);
    else throw new RowError(`${field}.${key}: must be a string`);
  }
  return out;
}

function asMs(row: Row, msKeys: readonly string[], secKeys: readonly string[]): number | undefined {
  for (const key of msKeys) if (row[key] !== undefined) return row[key] as number;
  for (const key of secKeys) {
    const v = row[key];
    if (typeof v === "number") return Math.round(v * 1000);
    if (v !== undefined) return v as number; // let the schema name the bad value
  }
  return undefined;
}

/** `oauth.clientSecret` is written as a `${VAR}` reference; the rest is validated by the schema as is. */
function expandOAuthSecret(oauth: unknown, expand: (s: string) => string): unknown {
  if (typeof oauth !== "object" || oauth === null || Array.isArray(oauth)) return oauth;
  const secret = (oauth as Row).clientSecret;
  return typeof secret === "string" ? { ...oauth, clientSecret: expand(secret) } : oauth;
}

/** Normalizes one pasted row into the contract's input shape (validation comes after). */
function normalizeRow(
  name: string,
  row: Row,
  baseDir: string,
  env: EnvLookup,
  warn: (message: string) => void,
): Record<string, unknown> {
  for (const key of Object.keys(row)) {
    if (!FIELDS.has(key) && !FOREIGN.has(key)) warn(`unknown field "${key}" ignored`);
  }
  const missing = new Set<string>();
  const expand = (s: string) => expandVars(s, env, (v) => missing.add(v));

  const declared = row.transport ?? row.type;
  let transport: ServerConfig["transport"] | undefined;
  if (declared !== undefined) {
    if (typeof declared !== "string" || TRANSPORT_ALIASES[declared.toLowerCase()] === undefined) {
      throw new RowError(
        `${row.transport !== undefined ? "transport" : "type"}: unknown transport ${JSON.stringify(declared)}; use stdio, http or sse`,
      );
    }
    transport = TRANSPORT_ALIASES[declared.toLowerCase()];
  }

  let command = row.command;
  let args = row.args === undefined ? [] : asStringList(row.args, "args");
  if (Array.isArray(command)) {
    // opencode: "command": ["npx", "-y", "server"]
    const parts = asStringList(command, "command");
    command = parts[0];
    args = [...parts.slice(1), ...args];
  }
  const url = row.httpUrl ?? row.url ?? row.serverUrl;
  if (transport === undefined) {
    if (command !== undefined && url !== undefined)
      throw new RowError("has both command and url; set transport (stdio, http or sse)");
    if (command !== undefined) transport = "stdio";
    else if (url !== undefined) transport = "streamable-http";
    else throw new RowError("needs a command (stdio) or a url (http)");
  }

  const shared: Record<string, unknown> = { transport, id: name };
  const startup = asMs(row, ["startupTimeoutMs", "startup_timeout_ms"], ["startup_timeout_sec"]);
  const tool = asMs(row, ["toolTimeoutMs", "tool_timeout_ms", "timeout"], ["tool_timeout_sec"]);
  if (startup !== undefined) shared.startupTimeoutMs = startup;
  if (tool !== undefined) shared.toolTimeoutMs = tool;
  if (row.listTimeoutMs !== undefined) shared.listTimeoutMs = row.listTimeoutMs;
  const include = row.includeTools ?? row.enabled_tools;
  const exclude = row.excludeTools ?? row.disabled_tools;
  if (include !== undefined) shared.includeTools = include;
  if (exclude !== undefined) shared.excludeTools = exclude;
  if (row.reconnect !== undefined) shared.reconnect = row.reconnect;

  let out: Record<string, unknown>;
  if (transport === "stdio") {
    if (typeof command !== "string") throw new RowError("command: must be a string naming the program to run");
    const envMap = row.env ?? row.environment;
    const vars = envMap === undefined ? {} : asStringMap(envMap, row.env !== undefined ? "env" : "environment");
    out = {
      ...shared,
      command: expand(command),
      args: args.map(expand),
      env: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, expand(v)])),
    };
    if (row.cwd !== undefined) {
      if (typeof row.cwd !== "string") throw new RowError("cwd: must be a string");
      let dir = expand(row.cwd);
      if (dir === "~" || dir.startsWith("~/")) dir = path.join(env.HOME ?? os.homedir(), dir.slice(1));
      out.cwd = path.resolve(baseDir, dir);
    }
  } else {
    if (typeof url !== "string") throw new RowError("url: must be a string");
    const headers = row.headers === undefined ? {} : asStringMap(row.headers, "headers");
    out = {
      ...shared,
      url: expand(url),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, expand(v)])),
    };
    if (row.oauth !== undefined) out.oauth = expandOAuthSecret(row.oauth, expand);
    if (row.cwd !== undefined) warn('"cwd" only applies to stdio servers; ignored');
  }
  for (const variable of missing) warn(`environment variable ${variable} is not set (expanded to "")`);
  return out;
}

// ------------------------------------------------------------------ files

class Accumulator {
  readonly servers: ServerConfig[] = [];
  readonly diagnostics: McpConfigDiagnostic[] = [];
  readonly origins = new Map<string, McpServerOrigin>();
  readonly disabled: ({ name: string } & McpServerOrigin)[] = [];
  readonly files: { file: string; scope: McpConfigScope }[] = [];

  readFile(file: string, scope: McpConfigScope, baseDir: string, env: EnvLookup): void {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      this.files.push({ file, scope });
      this.diagnostics.push({ file, message: `cannot read: ${(error as Error).message}`, severity: "error" });
      return;
    }
    this.parseText(text, file, scope, baseDir, env);
  }

  parseText(text: string, file: string, scope: McpConfigScope, baseDir: string, env: EnvLookup): void {
    this.files.push({ file, scope });
    const error = (message: string): void => {
      this.diagnostics.push({ file, message, severity: "error" });
    };
    let doc: unknown;
    try {
      doc = parseJsonc(text);
    } catch (e) {
      error(`malformed JSON, nothing loaded from this file: ${(e as Error).message}`);
      return;
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
      error("must be a JSON object with a servers (or mcpServers) key; nothing loaded");
      return;
    }
    const top = doc as Row;
    const keys = (["servers", "mcpServers", "mcp"] as const).filter((k) => top[k] !== undefined);
    if (keys.length === 0) {
      this.diagnostics.push({ file, message: "no servers or mcpServers key; nothing to load", severity: "warning" });
      return;
    }
    for (const key of keys) {
      const block = top[key];
      if (Array.isArray(block)) {
        block.forEach((row, i) => {
          const name = typeof row === "object" && row !== null ? ((row as Row).name ?? (row as Row).id) : undefined;
          this.addRow(typeof name === "string" ? name : undefined, row, `${key}[${i}]`, file, scope, baseDir, env);
        });
      } else if (typeof block === "object" && block !== null) {
        for (const [name, row] of Object.entries(block)) {
          const label = /^[A-Za-z_$][\w$-]*$/.test(name) ? `${key}.${name}` : `${key}[${JSON.stringify(name)}]`;
          this.addRow(name, row, label, file, scope, baseDir, env);
        }
      } else {
        error(`"${key}" must be an array or an object of servers; nothing loaded from it`);
      }
    }
  }

  addRow(
    name: string | undefined,
    value: unknown,
    row: string,
    file: string,
    scope: McpConfigScope,
    baseDir: string,
    env: EnvLookup,
  ): void {
    const skip = (message: string): void => {
      this.diagnostics.push({ file, row, message: `${message}; server skipped`, severity: "error" });
    };
    const warn = (message: string): void => {
      this.diagnostics.push({ file, row, message, severity: "warning" });
    };
    if (typeof value !== "object" || value === null || Array.isArray(value)) return skip("must be an object");
    const r = value as Row;
    if (name === undefined || name.trim() === "") return skip('needs a "name"');
    if (r.enabled === false || r.disabled === true) {
      this.disabled.push({ name, file, row, scope });
      return;
    }
    let candidate: Record<string, unknown>;
    try {
      candidate = normalizeRow(name, r, baseDir, env, warn);
    } catch (e) {
      if (e instanceof RowError) return skip(e.message);
      throw e;
    }
    const parsed = parseServerConfig(candidate);
    if (!parsed.ok) {
      return skip(
        parsed.issues.map((issue) => `${issue.path === "id" ? "name" : issue.path}: ${issue.message}`).join("; "),
      );
    }
    const earlier = this.origins.get(parsed.value.id);
    if (earlier) {
      this.diagnostics.push({
        file,
        row,
        message: `server "${parsed.value.id}" is already defined in ${earlier.file} (${earlier.row}); this definition is ignored`,
        severity: "warning",
      });
      return;
    }
    this.servers.push(parsed.value);
    this.origins.set(parsed.value.id, { file, row, scope });
  }

  result(): McpConfigLoad {
    return {
      servers: this.servers,
      diagnostics: this.diagnostics,
      origins: this.origins,
      disabled: this.disabled,
      files: this.files,
    };
  }
}
