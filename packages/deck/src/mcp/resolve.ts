/**
 * Which servers a session uses: explicit `--mcp` paths win, otherwise the cwd
 * is discovered. Several paths merge in order; the first definition of an id
 * wins and later ones are reported. Reads files only; connects nothing.
 */
import type { ServerConfig } from "@indus/contract";
import { type McpConfigDiagnostic, type McpConfigLoad, type McpServerOrigin, loadMcpConfig } from "./config";
import type { EnvLookup } from "./expand";

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
}

export function resolveMcpConfig(
  invocation: McpInvocation,
  cwd: string,
  env: EnvLookup = process.env,
): ResolvedMcpConfig {
  const paths = invocation.mcp && invocation.mcp.length > 0 ? invocation.mcp : [cwd];
  const servers: ServerConfig[] = [];
  const diagnostics: McpConfigDiagnostic[] = [];
  const origins = new Map<string, McpServerOrigin>();
  const disabled: McpConfigLoad["disabled"][number][] = [];
  const files: McpConfigLoad["files"][number][] = [];
  for (const entry of paths) {
    const load = loadMcpConfig(entry, env);
    diagnostics.push(...load.diagnostics);
    disabled.push(...load.disabled);
    files.push(...load.files);
    for (const server of load.servers) {
      const origin = load.origins.get(server.id) as McpServerOrigin;
      const earlier = origins.get(server.id);
      if (earlier) {
        diagnostics.push({
          ...origin,
          message: `server "${server.id}" is already defined in ${earlier.file} (${earlier.row}); this definition is ignored`,
          severity: "warning",
        });
        continue;
      }
      servers.push(server);
      origins.set(server.id, origin);
    }
  }
  return { servers, origins, diagnostics, disabled, files };
}
