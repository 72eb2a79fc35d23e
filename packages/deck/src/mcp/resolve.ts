/**
 * Which servers a session uses: explicit `--mcp` paths win (and skip the
 * approval of other tools' project files, since the user named them),
 * otherwise the cwd is discovered. Several paths merge in order; the first
 * definition of a name wins and later ones are reported as shadowed.
 * Reads files only; connects nothing.
 */
import type { ServerConfig } from "@indus/contract";
import { loadManagedPolicy, policyVerdict, type ManagedPolicy, type PolicySubject } from "./managed-policy";
import { loadMcpConfig } from "./config";
import type { McpConfigDiagnostic, McpConfigLoad, McpLoadOptions, McpServerOrigin } from "./config-types";

export interface McpInvocation {
  /** `--mcp` values: config files, or directories to discover under. Empty or absent: discover under the cwd. */
  readonly mcp?: readonly string[];
}

export interface ResolvedMcpConfig {
  readonly servers: readonly ServerConfig[];
  readonly origins: ReadonlyMap<string, McpServerOrigin>;
  readonly diagnostics: readonly McpConfigDiagnostic[];
  readonly disabled: McpConfigLoad["disabled"];
  readonly files: McpConfigLoad["files"];
  readonly searched: McpConfigLoad["searched"];
  readonly pendingApproval: McpConfigLoad["pendingApproval"];
  readonly pendingInputs: McpConfigLoad["pendingInputs"];
  /** True when the servers came from explicit `--mcp` paths. */
  readonly explicit: boolean;
}

export function resolveMcpConfig(
  invocation: McpInvocation,
  cwd: string,
  options: Omit<McpLoadOptions, "cwd"> = {},
): ResolvedMcpConfig {
  const explicit = invocation.mcp !== undefined && invocation.mcp.length > 0;
  // The machine's policy applies to every path a server can come by: discovered files and `--mcp` alike.
  const policy = loadManagedPolicy(options.env ?? process.env);
  const paths = explicit && invocation.mcp ? invocation.mcp : [cwd];
  const servers: ServerConfig[] = [];
  const diagnostics: McpConfigDiagnostic[] = [];
  const origins = new Map<string, McpServerOrigin>();
  const merged = {
    disabled: [] as McpConfigLoad["disabled"][number][],
    files: [] as McpConfigLoad["files"][number][],
    searched: [] as string[],
    pendingApproval: [] as McpConfigLoad["pendingApproval"][number][],
    pendingInputs: [] as McpConfigLoad["pendingInputs"][number][],
  };
  for (const entry of paths) {
    const load = loadMcpConfig(entry, { ...options, cwd, ...(explicit ? { approval: "skip" as const } : {}) });
    diagnostics.push(...load.diagnostics);
    merged.disabled.push(...load.disabled);
    merged.files.push(...load.files);
    merged.searched.push(...load.searched);
    merged.pendingApproval.push(...allowedPending(load.pendingApproval, policy, diagnostics));
    merged.pendingInputs.push(...load.pendingInputs.filter((p) => !merged.pendingInputs.some((q) => q.id === p.id)));
    for (const server of load.servers) {
      const origin = load.origins.get(server.id) as McpServerOrigin;
      const verdict = policyVerdict(policy, subjectOf(server));
      if (!verdict.allowed) {
        diagnostics.push({
          kind: "denied",
          file: origin.file,
          row: origin.row,
          message: verdict.reason,
          severity: "error",
        });
        continue;
      }
      const earlier = origins.get(server.id);
      if (earlier) {
        diagnostics.push({
          kind: "shadowed",
          file: origin.file,
          row: origin.row,
          message: `server "${server.id}" is shadowed by ${earlier.file} (${earlier.row}), which defines it first; this definition is ignored`,
          severity: "warning",
        });
        continue;
      }
      servers.push(server);
      origins.set(server.id, origin);
    }
  }
  return { servers, origins, diagnostics, ...merged, explicit };
}

/** What the managed policy matches a configured server by. */
function subjectOf(server: ServerConfig): PolicySubject {
  return server.transport === "stdio"
    ? { name: server.id, command: server.command, args: server.args }
    : { name: server.id, url: server.url };
}

/** Rows waiting for approval that the policy would deny anyway are not offered: they are reported as denied. */
function allowedPending(
  pending: McpConfigLoad["pendingApproval"],
  policy: ManagedPolicy | undefined,
  diagnostics: McpConfigDiagnostic[],
): McpConfigLoad["pendingApproval"] {
  if (policy === undefined) return pending;
  return pending.flatMap((file) => {
    const rows = file.rows.filter((row) => {
      const shown = row.shown;
      const verdict = policyVerdict(policy, {
        name: row.name,
        ...(typeof shown["command"] === "string" ? { command: shown["command"] } : {}),
        ...(Array.isArray(shown["args"]) ? { args: shown["args"].map(String) } : {}),
        ...(typeof shown["url"] === "string" ? { url: shown["url"] } : {}),
      });
      if (!verdict.allowed)
        diagnostics.push({ kind: "denied", file: file.file, message: verdict.reason, severity: "error" });
      return verdict.allowed;
    });
    return rows.length === 0 ? [] : [{ ...file, rows, names: rows.map((row) => row.name) }];
  });
}
