/**
 * `indusr doctor`: everything that decides whether MCP works here, in one
 * report. Which config files were read and what was wrong with them, each
 * server's command found on PATH (stdio) and auth (remote), then a real
 * connect of every server: phase, era, tools and connect time. Exit 1 when
 * anything needs attention.
 */
import fs from "node:fs";
import path from "node:path";
import type { ServerConfig } from "@indus/contract";
import type { ConnectedMcp } from "../boot/connect-mcp";
import type { ServerReport } from "../boot/boot-types";
import type { CliEnv } from "../cli-env";
import { EXIT } from "../exit";
import { VERSION } from "../version";
import { reportJson, warningsFor } from "./server-json";
import { trustLines, trustProblems } from "../trust/trust-lines";
import { bootOptionsOf, type DeckFlags } from "./shared";

/** The absolute path `command` runs as, or undefined when it is not found. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const executable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes("/") || command.includes("\\")) {
    const file = path.resolve(cwd, command);
    return executable(file) ? file : undefined;
  }
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean))
    for (const ext of exts) if (executable(path.join(dir, command + ext))) return path.join(dir, command + ext);
  return undefined;
}

function authOf(server: ServerConfig): string {
  if (server.transport === "stdio") return "n/a (stdio)";
  const header = Object.keys(server.headers).find((h) => h.toLowerCase() === "authorization");
  if (header) return `static ${header} header`;
  if (server.oauth?.grant === "client_credentials") return "OAuth client credentials";
  if (server.oauth) return "OAuth";
  return "none";
}

export async function doctorCommand(flags: DeckFlags): Promise<number> {
  const { cli, options } = bootOptionsOf({ ...flags, json: true }, "all");
  const { connectMcp } = await import("../boot/connect-mcp");
  const connected = await connectMcp({ ...options, screenCatalogs: true });
  try {
    const { screenCatalogs } = await import("../trust/screen-catalogs");
    await (connected.catalogs ? connected.catalogs.done() : screenCatalogs(connected.mcp.fleet));
    const servers = connected.reports();
    const report = doctorReport(connected, servers, cli);
    const text = flags.json ? JSON.stringify(report, null, 2) : doctorText(report, connected, servers).join("\n");
    process.stdout.write(`${text}\n`);
    return report.problems > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await connected.mcp.tearDown();
  }
}

type DoctorReport = ReturnType<typeof doctorReport>;

/** Each server's command on PATH (stdio) and auth (remote). */
function serverChecks(mcp: ConnectedMcp["mcp"], cli: CliEnv) {
  return mcp.servers.map((server) => {
    const found = server.transport === "stdio" ? findOnPath(server.command, cli.env, server.cwd ?? cli.cwd) : undefined;
    return {
      name: server.id,
      command: server.transport === "stdio" ? { name: server.command, path: found ?? null } : null,
      auth: authOf(server),
    };
  });
}

/** What `doctor --json` prints: config diagnostics, each server's checks and report, lock file problems, the count. */
function doctorReport({ mcp, diagnostics, trust }: ConnectedMcp, servers: readonly ServerReport[], cli: CliEnv) {
  const checks = serverChecks(mcp, cli);
  const problems =
    diagnostics.filter((d) => d.severity === "error" || d.kind === "needs-approval").length +
    checks.filter((c) => c.command && !c.command.path).length +
    servers.filter((s) => s.phase !== "ready").length +
    servers.reduce((sum, s) => sum + trustProblems(s.trust), 0) +
    trust.problems().length;
  return {
    indusr: VERSION,
    node: process.version,
    cwd: cli.cwd,
    diagnostics: diagnostics.map((d) => ({
      kind: d.kind,
      severity: d.severity,
      file: d.file,
      row: d.row ?? null,
      message: d.message,
    })),
    servers: servers.map((s) => {
      const check = checks.find((c) => c.name === s.id);
      return {
        ...reportJson(s, warningsFor(diagnostics, s.source, mcp.origins.get(s.id)?.row)),
        command: check?.command ?? null,
        auth: check?.auth ?? "none",
      };
    }),
    lockFiles: trust.problems(),
    problems,
  };
}

/** The report for a reader: config files and their problems, then each server, then the count. */
function doctorText(report: DoctorReport, { mcp }: ConnectedMcp, servers: readonly ServerReport[]): string[] {
  const out: string[] = [`indusr ${VERSION} on Node ${process.version}`, `cwd: ${report.cwd}`, ""];
  out.push("Config:");
  const files = new Set([...mcp.origins.values()].map((o) => o.file));
  for (const file of files) out.push(`  ✓ ${file}`);
  if (files.size === 0) out.push("  (no servers configured; see `indusr mcp list` for where indus looked)");
  for (const d of report.diagnostics)
    out.push(`  ${d.severity === "error" ? "✗" : "!"} ${d.file}${d.row ? ` (${d.row})` : ""}: ${d.message}`);
  for (const lock of report.lockFiles) for (const problem of lock.problems) out.push(`  ! ${lock.file}: ${problem}`);
  out.push("", "Servers:");
  for (const s of report.servers) out.push(...serverText(s, servers.find((r) => r.id === s.name)?.trust));
  const { problems } = report;
  out.push("", problems === 0 ? "No problems found." : `${problems} problem${problems === 1 ? "" : "s"} found.`);
  return out;
}

/** One server's lines: reachable or not, its command, auth, phase, and its standing with the trust gate. */
function serverText(s: DoctorReport["servers"][number], standing: ServerReport["trust"]): string[] {
  const ok = s.phase === "ready" && (!s.command || s.command.path);
  const out = [`  ${ok ? "✓" : "✗"} ${s.name} (${s.transport}${s.era ? `, ${s.era}` : ""})`];
  if (s.command) out.push(`      command: ${s.command.name} → ${s.command.path ?? "NOT FOUND on PATH"}`);
  out.push(`      auth: ${s.auth}`);
  out.push(
    `      ${s.phase}${s.connectMs !== undefined ? ` in ${s.connectMs} ms` : ""}, ${s.tools} tools${s.fault ? `; ${s.fault.kind}: ${s.fault.message.split("\n")[0]}` : ""}`,
  );
  if (standing) out.push(`      trust: ${standing.mode}${standing.lockFile ? ` (pins in ${standing.lockFile})` : ""}`);
  for (const line of trustLines(s.name, standing)) out.push(`      ! ${line}`);
  return out;
}
