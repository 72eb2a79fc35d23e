/**
 * One JSON shape for "a server" across `mcp list`, `mcp get`, `mcp status`
 * and `doctor`: `name`, `transport`, `source`, then what the command knows
 * (`phase`, `era`, `tools`, `fault`), and always `warnings` (the config
 * diagnostics about that server's row, so `--json` users see them too).
 */
import type { ConfigDiagnostic, ServerReport } from "../boot/boot-types";

export interface ServerJson {
  readonly name: string;
  readonly transport: string;
  readonly source: string | null;
  readonly phase?: string;
  readonly era?: string;
  readonly tools?: number;
  readonly connectMs?: number;
  readonly fault?: { readonly kind: string; readonly message: string } | null;
  readonly warnings: readonly string[];
  readonly [extra: string]: unknown;
}

/** The messages of the diagnostics about `source`'s row for `name` (or about the whole file). */
export function warningsFor(
  diagnostics: readonly ConfigDiagnostic[],
  source: string | undefined,
  row: string | undefined,
): string[] {
  return diagnostics
    .filter((d) => d.file === source && (d.row === undefined || d.row === row))
    .map((d) => (d.row ? `${d.row}: ${d.message}` : d.message));
}

/** A server report, or `mcp status`'s row for it (where `needs-login` replaces the fault with a sign-in hint). */
type ReportLike = Omit<ServerReport, "phase" | "fault"> & {
  readonly phase: string;
  readonly fault?: ServerReport["fault"];
  readonly signIn?: string;
};

export function reportJson(report: ReportLike, warnings: readonly string[]): ServerJson {
  const era = (report as { era?: unknown }).era;
  return {
    name: report.id,
    transport: report.transport,
    source: report.source ?? null,
    phase: report.phase,
    ...(typeof era === "string" ? { era } : {}),
    tools: report.toolCount,
    ...(report.connectMs !== undefined ? { connectMs: report.connectMs } : {}),
    fault: report.fault ? { kind: report.fault.kind, message: report.fault.message } : null,
    ...(report.listFault ? { listFault: { kind: report.listFault.kind, message: report.listFault.message } } : {}),
    ...(report.issues && report.issues.length > 0 ? { issues: report.issues } : {}),
    warnings,
    ...(report.signIn !== undefined ? { signIn: report.signIn } : {}),
    ...(report.stderrTail ? { stderrTail: report.stderrTail } : {}),
    ...(report.trust ? { trust: report.trust } : {}),
  };
}
