/**
 * One client's row, translated into indus's own row: canonical field names,
 * the client's meaning of each key, and placeholders in indus syntax (not yet
 * expanded). `mcp import` writes these rows; the loader expands and validates
 * them. Nothing here reads the environment.
 */
import type { McpDialect } from "./dialect";
import type { Row } from "./peer-rows";
import { type PlaceholderField, toIndusPlaceholders } from "./placeholders";

export class RowError extends Error {}

/** Fields indus reads (under any client's spelling). */
const FIELDS = new Set([
  "name",
  "id",
  "transport",
  "type",
  "command",
  "args",
  "env",
  "environment",
  "env_vars",
  "envVars",
  "inheritEnv",
  "envFile",
  "cwd",
  "url",
  "httpUrl",
  "serverUrl",
  "headers",
  "http_headers",
  "env_http_headers",
  "bearer_token_env_var",
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
  "disabledTools",
  "reconnect",
  "oauth",
  "defer",
  "protocol",
  "trust",
]);

/** Fields other clients write that have no meaning here: dropped without a warning. */
const FOREIGN = new Set([
  "description",
  "alwaysAllow",
  "autoApprove",
  "gallery",
  "version",
  "icon",
  "title",
  "$schema",
  "dev",
]);

const TRANSPORT_ALIASES: Readonly<Record<string, string>> = {
  stdio: "stdio",
  local: "stdio",
  sse: "sse",
  http: "streamable-http",
  "streamable-http": "streamable-http",
  streamable_http: "streamable-http",
  streamablehttp: "streamable-http",
  remote: "streamable-http",
};

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

function asMs(row: Row, msKeys: readonly string[], secKeys: readonly string[]): unknown {
  for (const key of msKeys) if (row[key] !== undefined) return row[key];
  for (const key of secKeys) {
    const v = row[key];
    if (typeof v === "number") return Math.round(v * 1000);
    if (v !== undefined) return v; // the schema names the bad value
  }
  return undefined;
}

export interface TranslateReport {
  /** A problem worth a warning every time the file is read. */
  warn(message: string): void;
  /** Something dropped on purpose (shown by `mcp import`). */
  note(message: string): void;
}

/** The transport a row asks for, in the client's meaning of its keys. */
function transportOf(dialect: McpDialect, row: Row, hasCommand: boolean): string | undefined {
  const declared = row.transport ?? row.type;
  if (declared !== undefined) {
    const alias = typeof declared === "string" ? TRANSPORT_ALIASES[declared.toLowerCase()] : undefined;
    if (alias === undefined)
      throw new RowError(
        `${row.transport !== undefined ? "transport" : "type"}: unknown transport ${JSON.stringify(declared)}; use stdio, http or sse`,
      );
    return alias;
  }
  const hasUrl = row.url !== undefined || row.httpUrl !== undefined || row.serverUrl !== undefined;
  if (hasCommand && hasUrl) throw new RowError("has both command and url; set transport (stdio, http or sse)");
  if (hasCommand) return "stdio";
  if (row.httpUrl !== undefined) return "streamable-http";
  // Gemini's `url` is SSE; everyone else's is Streamable HTTP (with an SSE fallback).
  if (row.url !== undefined && dialect === "gemini") return "sse";
  if (hasUrl) return undefined;
  throw new RowError("needs a command (stdio) or a url (http)");
}

/** One row being translated: its dialect, its raw keys, where problems go, and its placeholder rewriting. */
interface Translation {
  readonly dialect: McpDialect;
  readonly raw: Row;
  readonly report: TranslateReport;
  readonly indus: (value: string, field: PlaceholderField) => string;
  readonly mapValues: (map: Record<string, string>, field: PlaceholderField) => Record<string, string>;
}

/** Translates one row; throws RowError when it cannot describe a server. */
export function translateRow(dialect: McpDialect, raw: Row, report: TranslateReport): Record<string, unknown> {
  for (const key of Object.keys(raw)) {
    if (FOREIGN.has(key)) report.note(`"${key}" has no meaning in indus; dropped`);
    else if (!FIELDS.has(key)) report.warn(`unknown field "${key}" ignored`);
  }
  const indus = (value: string, field: PlaceholderField) => toIndusPlaceholders(value, dialect, field);
  const row: Translation = {
    dialect,
    raw,
    report,
    indus,
    mapValues: (map, field) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, indus(v, field)])),
  };
  const { command, args } = commandOf(raw);
  const transport = transportOf(dialect, raw, command !== undefined);
  const out: Record<string, unknown> = {};
  if (transport !== undefined) out.transport = transport;
  if (raw.enabled === false || raw.disabled === true) out.enabled = false;
  if (transport === "stdio" || (transport === undefined && command !== undefined))
    Object.assign(out, stdioFields(row, command, args));
  else Object.assign(out, remoteFields(row));
  Object.assign(out, timeoutFields(dialect, raw), policyFields(row));
  return out;
}

/** Which tools, reconnecting, the protocol era, deferral and trust: the same in every dialect but for spelling. */
function policyFields({ raw, report }: Translation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const include = raw.includeTools ?? raw.enabled_tools;
  const exclude = raw.excludeTools ?? raw.disabled_tools ?? raw.disabledTools;
  if (include !== undefined) out.includeTools = include;
  if (exclude !== undefined) out.excludeTools = exclude;
  if (raw.reconnect !== undefined) out.reconnect = raw.reconnect;
  if (raw.protocol !== undefined) out.protocol = raw.protocol;
  if (raw.defer !== undefined) out.defer = raw.defer;
  // Gemini's `trust: true` skips its confirmations: no meaning here. indus's own is a mode (the schema checks it).
  if (typeof raw.trust === "boolean")
    report.note('"trust": true/false (skip confirmations) has no meaning in indus; dropped');
  else if (raw.trust !== undefined) out.trust = raw.trust;
  return out;
}

/** The program and its arguments (opencode writes them as one list: `"command": ["npx", "-y", "server"]`). */
function commandOf(raw: Row): { command: unknown; args: string[] } {
  const args = raw.args === undefined ? [] : asStringList(raw.args, "args");
  if (!Array.isArray(raw.command)) return { command: raw.command, args };
  const parts = asStringList(raw.command, "command");
  return { command: parts[0], args: [...parts.slice(1), ...args] };
}

/** A stdio server's command, args, env (with Codex's pass-through `env_vars`), envFile and cwd. */
function stdioFields(
  { raw, indus, mapValues }: Translation,
  command: unknown,
  args: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof command !== "string") throw new RowError("command: must be a string naming the program to run");
  out.command = indus(command, "command");
  if (args.length > 0) out.args = args.map((a) => indus(a, "args"));
  const envField = raw.env !== undefined ? "env" : "environment";
  const env = mapValues(asStringMap(raw.env ?? raw.environment ?? {}, envField), "env");
  if (Object.keys(env).length > 0) out.env = env;
  Object.assign(out, inheritedEnvFields(raw));
  if (raw.envFile !== undefined) {
    if (typeof raw.envFile !== "string") throw new RowError("envFile: must be a string");
    out.envFile = indus(raw.envFile, "envFile");
  }
  if (raw.cwd !== undefined) {
    if (typeof raw.cwd !== "string") throw new RowError("cwd: must be a string");
    out.cwd = indus(raw.cwd, "cwd");
  }
  return out;
}

/** Which of the user's environment the server inherits: Codex's `env_vars` allow-list, or `inheritEnv: false`. */
function inheritedEnvFields(raw: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const envVars = raw.env_vars ?? raw.envVars;
  if (envVars !== undefined) out.envVars = asStringList(envVars, raw.env_vars !== undefined ? "env_vars" : "envVars");
  if (raw.inheritEnv !== undefined) {
    if (typeof raw.inheritEnv !== "boolean") throw new RowError("inheritEnv: must be true or false");
    out.inheritEnv = raw.inheritEnv;
  }
  return out;
}

/** A remote server's url, headers (with Codex's variable-named ones and bearer token) and oauth. */
function remoteFields({ raw, report, indus, mapValues }: Translation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const url = raw.httpUrl ?? raw.url ?? raw.serverUrl;
  if (typeof url !== "string") throw new RowError("url: must be a string");
  out.url = indus(url, "url");
  const headers = mapValues(
    { ...asStringMap(raw.http_headers ?? {}, "http_headers"), ...asStringMap(raw.headers ?? {}, "headers") },
    "headers",
  );
  // Codex: header values and the bearer token come from named variables.
  for (const [header, variable] of Object.entries(asStringMap(raw.env_http_headers ?? {}, "env_http_headers")))
    headers[header] = `\${${variable}}`;
  if (raw.bearer_token_env_var !== undefined) {
    if (typeof raw.bearer_token_env_var !== "string") throw new RowError("bearer_token_env_var: must be a string");
    headers.Authorization = `Bearer \${${raw.bearer_token_env_var}}`;
  }
  if (Object.keys(headers).length > 0) out.headers = headers;
  if (raw.oauth !== undefined) out.oauth = raw.oauth;
  if (raw.cwd !== undefined) report.warn('"cwd" only applies to stdio servers; ignored');
  if (raw.envFile !== undefined) report.warn('"envFile" only applies to stdio servers; ignored');
  return out;
}

/** The three timeouts, in milliseconds, from each client's spelling of them. */
function timeoutFields(dialect: McpDialect, raw: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const startup = asMs(raw, ["startupTimeoutMs", "startup_timeout_ms"], ["startup_timeout_sec"]);
  // opencode's `timeout` bounds fetching the tool list; Gemini's bounds each call.
  const toolKeys =
    dialect === "opencode" ? ["toolTimeoutMs", "tool_timeout_ms"] : ["toolTimeoutMs", "tool_timeout_ms", "timeout"];
  const listKeys = dialect === "opencode" ? ["listTimeoutMs", "timeout"] : ["listTimeoutMs"];
  const tool = asMs(raw, toolKeys, ["tool_timeout_sec"]);
  const list = asMs(raw, listKeys, []);
  if (startup !== undefined) out.startupTimeoutMs = startup;
  if (list !== undefined) out.listTimeoutMs = list;
  if (tool !== undefined) out.toolTimeoutMs = tool;
  return out;
}
