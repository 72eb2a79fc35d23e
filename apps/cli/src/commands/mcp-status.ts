/**
 * `indusr mcp status`: connect every configured server in parallel and report
 * phase, tool count (after includeTools/excludeTools: what the agent sees),
 * fault, connect time and, for a failed stdio server, the last lines it wrote
 * to stderr. A server that wants a sign-in shows as `needs-login` with the
 * command to run, not as a fault. Exit 1 when any server failed.
 */
import { serverCondition, type ServerCondition } from "@indus/contract";
import type { ServerReport } from "../boot/boot-types";
import { EXIT } from "../exit";
import { setExitCode } from "../teardown";
import { warnFailedServers, withServers, type DeckFlags } from "./shared";
import { reportJson, warningsFor } from "./server-json";
import { table } from "./tools";
import { screenCatalogs } from "../trust/screen-catalogs";
import { trustCell, trustLines } from "../trust/trust-lines";

/**
 * What `mcp status` prints for one server: its condition (a ready server that
 * could not list, or whose data was cut, is `degraded`), and `needs-login` as
 * a state of its own, with its hint instead of a fault.
 */
export type StatusRow =
  | (Omit<ServerReport, "phase"> & { readonly phase: ServerCondition })
  | (Omit<ServerReport, "phase" | "fault"> & { readonly phase: "needs-login"; readonly signIn: string });

/**
 * `machineGrant`: the server signs in with the client_credentials grant, so an
 * `unauthorized` fault is a failure to fix in its config or environment, not a
 * sign-in to run.
 */
export function statusRow(report: ServerReport, machineGrant = false): StatusRow {
  if (report.fault?.kind !== "unauthorized" || machineGrant) return { ...report, phase: serverCondition(report) };
  const { fault, ...rest } = report;
  return { ...rest, phase: "needs-login", signIn: fault.message };
}

export function mcpStatusCommand(flags: DeckFlags): Promise<number> {
  return withServers(
    flags,
    async ({ mcp, reports, diagnostics, catalogs }, cli, options) => {
      await (catalogs ? catalogs.done() : screenCatalogs(mcp.fleet));
      const reported = reports();
      const machine = new Set(
        mcp.servers.filter((s) => s.transport !== "stdio" && s.oauth?.grant === "client_credentials").map((s) => s.id),
      );
      const servers = reported.map((report) => statusRow(report, machine.has(report.id)));
      const signIn = servers.filter((s) => s.phase === "needs-login");
      const failed = servers.filter((s) => s.phase !== "ready" && s.phase !== "needs-login");
      // Why a ready server is degraded: say it on stderr too.
      warnFailedServers(
        cli,
        reported.filter((s) => s.listFault || s.issues),
      );
      const code = failed.length > 0 ? EXIT.failed : EXIT.ok;
      setExitCode(code);
      if (flags.json) {
        const json = servers.map((s) => reportJson(s, warningsFor(diagnostics, s.source, mcp.origins.get(s.id)?.row)));
        process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      } else if (servers.length === 0) {
        const { emptyStateMessage } = await import("./mcp-config");
        const { resolveMcpConfig } = await import("@indus/deck");
        const resolved = resolveMcpConfig(options.mcp ? { mcp: options.mcp } : {}, options.cwd, { env: options.env });
        process.stdout.write(emptyStateMessage(cli, resolved));
      } else {
        const rows = [["SERVER", "PHASE", "ERA", "TOOLS", "TIME", "FAULT"]];
        for (const s of servers) {
          rows.push([
            s.id,
            s.phase,
            s.era ?? "-",
            String(s.toolCount),
            s.connectMs === undefined ? "-" : `${s.connectMs} ms`,
            faultCell(s),
          ]);
        }
        process.stdout.write(`${table(rows, 120)}\n`);
        for (const s of failed) {
          if (!s.stderrTail || s.stderrTail.length === 0) continue;
          process.stdout.write(
            `\n${s.id} stderr (last ${s.stderrTail.length} lines):\n${s.stderrTail.map((line) => `  ${line}`).join("\n")}\n`,
          );
        }
        for (const s of signIn) if ("signIn" in s) process.stdout.write(`\n${s.signIn}\n`);
        const standing = servers.flatMap((s) => trustLines(s.id, s.trust));
        if (standing.length > 0) process.stdout.write(`\n${standing.map((line) => `! ${line}`).join("\n")}\n`);
        const ready = servers.length - failed.length - signIn.length;
        const waiting =
          signIn.length > 0 ? `, ${signIn.length} ${signIn.length === 1 ? "needs" : "need"} a sign-in` : "";
        process.stdout.write(`\n${ready} of ${servers.length} servers ready${waiting}\n`);
      }
      return code;
    },
    { screenCatalogs: true },
  );
}

function faultCell(server: StatusRow): string {
  if ("signIn" in server) return "";
  if (server.fault) return `${server.fault.kind}: ${server.fault.message.split("\n")[0]}`;
  if (server.listFault) return `listing failed, ${server.listFault.kind}: ${server.listFault.message.split("\n")[0]}`;
  const issues = server.issues ?? [];
  if (issues.length > 0) return `${issues[0]}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ""}`;
  return trustCell(server.trust);
}
