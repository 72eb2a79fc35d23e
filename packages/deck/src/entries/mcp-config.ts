/**
 * @indus/deck/mcp-config: finding and reading MCP config files: the search
 * paths and dialects, other agents' config files (import), the project
 * approval state and the managed policy. Booting from a config is
 * `resolveMcpConfig` / `loadMcpCapabilities` in the main entry.
 */
export { loadMcpConfig, mcpConfigSearchPaths, parseMcpConfigText } from "../mcp/config";
export type {
  McpConfigDiagnostic,
  McpConfigLoad,
  McpConfigScope,
  McpDiagnosticKind,
  McpLoadOptions,
  McpServerOrigin,
  PendingApproval,
  PendingRow,
  ApprovedRow,
  ApprovedRows,
  SearchPath,
} from "../mcp/config-types";
export { MCP_DIALECTS, dialectOfFile } from "../mcp/dialect";
export type { McpDialect } from "../mcp/dialect";
export { approvalStateFile, approveProjectRows } from "../mcp/approval";
export { readPeerFile } from "../mcp/peer-import";
export type { ImportedServer, PeerFileRead } from "../mcp/peer-import";
export type { InputDefinition } from "../mcp/peer-rows";
export type { EnvLookup } from "../mcp/placeholders";
export { loadManagedPolicy, parseManagedPolicy, policyVerdict } from "../mcp/managed-policy";
export type { ManagedPolicy, PolicySubject, PolicyVerdict, ServerRule } from "../mcp/managed-policy";
