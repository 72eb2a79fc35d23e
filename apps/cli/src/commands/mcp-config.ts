/**
 * `indusr mcp list | get | show-merged`: the configured servers and the file
 * each came from, with secrets in env, headers and URLs redacted. When
 * nothing is configured, say where indus looked and how to import.
 */
import fs from "node:fs";
import type { ServerConfig } from "@indus/contract";
import type { ResolvedMcpConfig } from "@indus/deck";
import { cliEnv, type CliEnv } from "../cli-env";
import { canAsk, loadConfig } from "../config/config-load";
import { IMPORT_CLIENTS, importPlaces } from "../config/import-sources";
import { EXIT } from "../exit";
import { REDACTED, redactArgs, redactEnvValue, redactHeaderValue, redactRecord, redactUrl } from "../redact";
import { warningsFor } from "./server-json";
import { warnDiagnostics } from "./shared";
import { table } from "./tools";

interface ConfigFlags {
  readonly mcp?: string[];
  readonly cwd?: string;
  readonly json?: boolean;
}

const ENV_REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;
/** Placeholders that expand to paths, not secrets: shown expanded, which is what a user checks. */
const PATH_PLACEHOLDERS = new Set(["workspaceFolder", "workspaceFolderBasename", "userHome", "pathSeparator"]);

/** The value as the file wrote it when it holds an environment `${VAR}` reference (whose value may be secret). */
function reference(written: unknown, key: string): string | undefined {
  const value = (written as Record<string, unknown> | undefined)?.[key];
  if (typeof value !== "string") return undefined;
  const names = [...value.matchAll(ENV_REFERENCE)].map((m) => m[1] as string);
  return names.some((name) => !PATH_PLACEHOLDERS.has(name)) ? value : undefined;
}

/** A server config safe to print; `${VAR}` references in the file are shown as written, not expanded. */
export function redactServer(server: ServerConfig, written?: Readonly<Record<string, unknown>>): ServerConfig {
  if (server.transport === "stdio")
    return {
      ...server,
      args: redactArgs(server.args),
      env: redactRecord(server.env, (k, v) => reference(written?.env, k) ?? redactEnvValue(k, v)),
    };
  return {
    ...server,
    url: reference(written, "url") ?? redactUrl(server.url),
    headers: redactRecord(server.headers, (k, v) => reference(written?.headers, k) ?? redactHeaderValue(v)),
    ...(server.oauth?.clientSecret === undefined ? {} : { oauth: { ...server.oauth, clientSecret: REDACTED } }),
  };
}

function target(server: ServerConfig): string {
  return server.transport === "stdio" ? [server.command, ...redactArgs(server.args)].join(" ") : redactUrl(server.url);
}

async function load(flags: ConfigFlags) {
  const cli = cliEnv(flags);
  const resolved = await loadConfig({
    cwd: cli.cwd,
    ...(flags.mcp ? { mcp: flags.mcp } : {}),
    env: cli.env,
    interactive: !flags.json && canAsk(),
  });
  warnDiagnostics(cli, resolved.diagnostics);
  const rows = resolved.servers.map((server) => {
    const origin = resolved.origins.get(server.id);
    return {
      server: redactServer(server, origin?.written),
      source: origin?.file ?? "",
      row: origin?.row ?? "",
      warnings: warningsFor(resolved.diagnostics, origin?.file, origin?.row),
    };
  });
  return { cli, resolved, rows };
}

/** Which other clients' files exist, so the empty state can name the import that would help. */
function importableClients(cli: CliEnv): string[] {
  return IMPORT_CLIENTS.filter((client) =>
    importPlaces(client, {
      cwd: cli.cwd,
      home: cli.home,
      platform: process.platform,
      ...(cli.xdgConfigHome ? { xdgConfigHome: cli.xdgConfigHome } : {}),
    }).some((file) => fs.existsSync(file)),
  );
}

/** "No servers", with every place indus looked and what to do next. */
export function emptyStateMessage(cli: CliEnv, resolved: ResolvedMcpConfig): string {
  const lines = ["No MCP servers configured.", "indus looked in:"];
  for (const file of resolved.searched) lines.push(`  ${file}${fs.existsSync(file) ? "" : " (not found)"}`);
  for (const pending of resolved.pendingApproval)
    lines.push(
      `Waiting for your approval: ${pending.names.join(", ")} in ${pending.file} (run \`indusr mcp approve\`).`,
    );
  const found = importableClients(cli);
  lines.push(
    found.length > 0
      ? `Found other clients' configs: import them with ${found.map((c) => `\`indusr mcp import --from ${c}\``).join(", ")}.`
      : `Import servers from another client with \`indusr mcp import --from <${IMPORT_CLIENTS.join("|")}>\`, or add one with \`indusr mcp add <name> -- <command>\`.`,
  );
  return `${lines.join("\n")}\n`;
}

export async function mcpListCommand(flags: ConfigFlags): Promise<number> {
  const { cli, rows, resolved } = await load(flags);
  if (flags.json) {
    const json = rows.map((r) => ({
      name: r.server.id,
      transport: r.server.transport,
      source: r.source,
      row: r.row,
      target: target(r.server),
      warnings: r.warnings,
    }));
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) {
    process.stdout.write(emptyStateMessage(cli, resolved));
    return EXIT.ok;
  }
  const lines = [
    ["NAME", "TRANSPORT", "SOURCE", "TARGET"],
    ...rows.map((r) => [r.server.id, r.server.transport, r.source, target(r.server)]),
  ];
  process.stdout.write(`${table(lines, 100)}\n`);
  for (const d of resolved.disabled)
    process.stdout.write(`(disabled: ${d.name} in ${d.file}${d.reason ? `, ${d.reason}` : ""})\n`);
  return EXIT.ok;
}

export async function mcpGetCommand(name: string, flags: ConfigFlags): Promise<number> {
  const { rows } = await load(flags);
  const row = rows.find((r) => r.server.id === name);
  if (!row) {
    process.stderr.write(
      `indusr: no MCP server named "${name}" is configured${rows.length > 0 ? ` (configured: ${rows.map((r) => r.server.id).join(", ")})` : ""}\n`,
    );
    return EXIT.failed;
  }
  if (flags.json) {
    const { id, transport, ...rest } = row.server;
    process.stdout.write(
      `${JSON.stringify({ name: id, transport, source: row.source, row: row.row, ...rest, warnings: row.warnings }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  const s = row.server;
  const lines: string[] = [`${s.id}:`, `  source: ${row.source} (${row.row})`, `  transport: ${s.transport}`];
  if (s.transport === "stdio") {
    lines.push(`  command: ${s.command}`, `  args: ${JSON.stringify(s.args)}`);
    if (s.cwd) lines.push(`  cwd: ${s.cwd}`);
    for (const [k, v] of Object.entries(s.env)) lines.push(`  env ${k}=${v}`);
  } else {
    lines.push(`  url: ${s.url}`);
    for (const [k, v] of Object.entries(s.headers)) lines.push(`  header ${k}: ${v}`);
  }
  for (const key of ["startupTimeoutMs", "listTimeoutMs", "toolTimeoutMs", "includeTools", "excludeTools"] as const) {
    if (s[key] !== undefined) lines.push(`  ${key}: ${JSON.stringify(s[key])}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

export async function mcpShowMergedCommand(flags: ConfigFlags): Promise<number> {
  const { rows, resolved } = await load(flags);
  const merged = {
    files: resolved.files.map((f) => ({ file: f.file, scope: f.scope, dialect: f.dialect })),
    servers: rows.map((r) => {
      const { id, transport, ...rest } = r.server;
      return { name: id, transport, source: r.source, row: r.row, ...rest, warnings: r.warnings };
    }),
    disabled: resolved.disabled.map((d) => ({
      name: d.name,
      source: d.file,
      row: d.row,
      ...(d.reason ? { reason: d.reason } : {}),
    })),
    pendingApproval: resolved.pendingApproval,
  };
  process.stdout.write(`${JSON.stringify(merged, null, 2)}\n`);
  return EXIT.ok;
}
