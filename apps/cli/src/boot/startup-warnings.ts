/**
 * The warning lines every deck-using command prints before it starts work:
 * config diagnostics (a malformed file, a bad row, a duplicate server) and
 * servers that failed to start, and definitions the trust gate withheld or
 * flagged. `indusr tools`, `-p` and the interactive session print the same
 * lines, so a user sees one wording everywhere.
 */
import type { ServerTrust } from "../trust/trust-session";
import { trustLines } from "../trust/trust-lines";

/** What a diagnostic line needs (a `ConfigDiagnostic` or its event view). */
export interface DiagnosticView {
  /** The deck's diagnostic kind; `needs-approval` lines say how to approve. */
  readonly kind?: string;
  readonly file: string;
  readonly row?: string;
  readonly message: string;
}

/** What a failed-server line needs (a `ServerReport` or its event view). */
export interface FailedServerView {
  readonly id: string;
  readonly fault?: { readonly kind: string; readonly message: string };
  readonly listFault?: { readonly kind: string; readonly message: string };
  readonly issues?: readonly string[];
  /** Its definitions' standing with the trust gate: withheld ("changed since pinned", new, refused), flagged. */
  readonly trust?: ServerTrust;
}

const APPROVAL_HINT = "; approve with `indusr mcp approve` (or answer the prompt in a terminal session)";

/** `<file> (<row>): <message>`, one per diagnostic, without the `warning:` prefix. */
export function diagnosticLines(diagnostics: readonly DiagnosticView[]): string[] {
  return diagnostics.map(
    (d) =>
      `${d.row ? `${d.file} (${d.row})` : d.file}: ${d.message}${d.kind === "needs-approval" ? APPROVAL_HINT : ""}`,
  );
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/\.$/, "");
}

/** One line per server that faulted at boot or whose tool listing failed, without the `warning:` prefix. */
export function failedServerLines(servers: readonly FailedServerView[]): string[] {
  return servers.flatMap((server) => {
    if (server.fault)
      return [
        `MCP server "${server.id}" failed (${server.fault.kind}): ${firstLine(server.fault.message)}; its tools are skipped`,
      ];
    if (server.listFault)
      return [
        `MCP server "${server.id}" connected, but listing its tools failed (${server.listFault.kind}): ${firstLine(server.listFault.message)}; it offers no tools`,
      ];
    return (server.issues ?? []).map((issue) => `MCP server "${server.id}": ${issue}`);
  });
}

/** All three kinds, diagnostics first (they often explain the failures). */
export function startupWarnings(
  diagnostics: readonly DiagnosticView[],
  servers: readonly FailedServerView[],
): string[] {
  const trust = servers.flatMap((server) => trustLines(server.id, server.trust));
  return [...diagnosticLines(diagnostics), ...failedServerLines(servers), ...trust];
}
