/**
 * `indusr mcp list | get | show-merged`: the configured servers and the file
 * each came from, with secrets in env, headers and URLs redacted.
 */
import type { ServerConfig } from "@indus/contract";
import { resolveMcpConfig } from "@indus/deck";
import { cliEnv } from "../cli-env";
import { EXIT } from "../program";
import { REDACTED, redactArgs, redactEnvValue, redactHeaderValue, redactRecord, redactUrl } from "../redact";
import { warnDiagnostics } from "./shared";
import { table } from "./tools";

interface ConfigFlags {
  readonly mcp?: string[];
  readonly cwd?: string;
  readonly json?: boolean;
}

/** A server config safe to print. */
export function redactServer(server: ServerConfig): ServerConfig {
  if (server.transport === "stdio")
    return { ...server, args: redactArgs(server.args), env: redactRecord(server.env, redactEnvValue) };
  return {
    ...server,
    url: redactUrl(server.url),
    headers: redactRecord(server.headers, (_k, v) => redactHeaderValue(v)),
    ...(server.oauth?.clientSecret === undefined ? {} : { oauth: { ...server.oauth, clientSecret: REDACTED } }),
  };
}

function target(server: ServerConfig): string {
  return server.transport === "stdio" ? [server.command, ...redactArgs(server.args)].join(" ") : redactUrl(server.url);
}

function load(flags: ConfigFlags) {
  const cli = cliEnv(flags);
  const resolved = resolveMcpConfig({ mcp: flags.mcp ?? [] }, cli.cwd, { env: cli.env });
  warnDiagnostics(cli, resolved.diagnostics);
  const rows = resolved.servers.map((server) => ({
    server: redactServer(server),
    source: resolved.origins.get(server.id)?.file ?? "",
    row: resolved.origins.get(server.id)?.row ?? "",
  }));
  return { cli, resolved, rows };
}

export async function mcpListCommand(flags: ConfigFlags): Promise<number> {
  const { rows, resolved } = load(flags);
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify(
        rows.map((r) => ({
          name: r.server.id,
          transport: r.server.transport,
          target: target(r.server),
          source: r.source,
          row: r.row,
        })),
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  if (rows.length === 0) {
    const looked = resolved.files.map((f) => f.file).join(", ");
    process.stdout.write(
      `No MCP servers configured (looked in ${looked}). Add one with \`indusr mcp add <name> -- <command>\`.\n`,
    );
    return EXIT.ok;
  }
  const lines = [
    ["NAME", "TRANSPORT", "SOURCE", "TARGET"],
    ...rows.map((r) => [r.server.id, r.server.transport, r.source, target(r.server)]),
  ];
  process.stdout.write(`${table(lines, 100)}\n`);
  return EXIT.ok;
}

export async function mcpGetCommand(name: string, flags: ConfigFlags): Promise<number> {
  const { rows } = load(flags);
  const row = rows.find((r) => r.server.id === name);
  if (!row) {
    process.stderr.write(
      `indusr: no MCP server named "${name}" is configured${rows.length > 0 ? ` (configured: ${rows.map((r) => r.server.id).join(", ")})` : ""}\n`,
    );
    return EXIT.failed;
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...row.server, source: row.source, row: row.row }, null, 2)}\n`);
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
  for (const key of ["startupTimeoutMs", "toolTimeoutMs", "includeTools", "excludeTools"] as const) {
    if (s[key] !== undefined) lines.push(`  ${key}: ${JSON.stringify(s[key])}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

export async function mcpShowMergedCommand(flags: ConfigFlags): Promise<number> {
  const { rows, resolved } = load(flags);
  const merged = {
    files: resolved.files.map((f) => ({ file: f.file, scope: f.scope })),
    servers: Object.fromEntries(rows.map((r) => [r.server.id, { ...r.server, source: r.source }])),
    disabled: resolved.disabled.map((d) => ({ name: d.name, file: d.file, row: d.row })),
  };
  process.stdout.write(`${JSON.stringify(merged, null, flags.json ? undefined : 2)}\n`);
  return EXIT.ok;
}
