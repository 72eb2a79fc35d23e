/**
 * @indus/endpoint: one live MCP client connection (stdio, SSE, Streamable
 * HTTP) with an explicit lifecycle, typed faults and clean process shutdown.
 */
export { CLIENT_NAME, CLIENT_VERSION, DEFAULT_CLIENT_INFO } from "./client-identity";
export type { ClientIdentity } from "./client-identity";
export { McpServerEndpoint, createServerEndpoint } from "./server-endpoint";
export type { CatalogChange } from "./server-endpoint";
export { DEFAULT_CLOSE_GRACE_MS, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_TIMEOUTS } from "./endpoint-options";
export type { EndpointOAuthOptions, EndpointOptions, EndpointTimeouts } from "./endpoint-options";
export { signIn } from "./sign-in";
export type { SignInOptions, SignInResult } from "./sign-in";
export type { AuthorizationStep } from "./auth/oauth-provider";
export {
  MAX_TOOL_NAME_LENGTH,
  assignToolNames,
  isLegalToolName,
  sanitizeToolName,
  shortHash,
} from "./tools/tool-names";
export { diffTools } from "./tools/tool-changes";
export type { ToolsChange, ToolsChangeListener } from "./tools/tool-changes";
export { closeAllServerProcesses, liveProcessGroups, type ShutdownPace } from "./stdio/process-groups";
export { uriTemplateMatches } from "./catalog/uri-template";
export { fileEraVerdictStore } from "./era/era-verdict-file";

// The config helpers and contract types an endpoint user needs, so `@indus/endpoint` is the only install.
export { sseServer, stdioServer, streamableHttpServer } from "@indus/contract";
export type {
  EndpointPhase,
  EndpointStatus,
  FaultKind,
  ProtocolFault,
  RemoteCallResult,
  RemoteTool,
  ServerConfig,
  ServerConfigInput,
} from "@indus/contract";
