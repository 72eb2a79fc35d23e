/**
 * @indus/provider-host: publish an indus tool box as an MCP server, over
 * stdio for one client or Streamable HTTP for many, to 2025-era and
 * 2026-07-28 clients alike.
 */
export { DEFAULT_HOST_INFO, createProviderHost } from "./provider-host";
export type { ProviderHost, ProviderHostInfo, ProviderHostOptions, RunningProviderHost } from "./provider-host";
export { StdioHostTransport, serveStdio } from "./stdio/stdio-host";
export type { StdioHostOptions, StdioProviderHost } from "./stdio/stdio-host";
export { DEFAULT_TOKEN_ENV, serveHttp } from "./http/serve-http";
export type { HttpHostOptions, HttpProviderHost } from "./http/serve-http";
export { DEFAULT_MAX_BODY_BYTES } from "./http/request-body";
export type { GatewayOptions } from "./gateway/gateway-options";
export type { IntrospectionOptions, OAuthResourceOptions } from "./auth/oauth-options";
export type { AuditLogOptions } from "./observe/audit-log";
export type { UpstreamHealth } from "./observe/gateway-metrics";
export type { ItemOwners } from "./access/item-owners";
export { createClientRelay } from "./relay/client-relay";
export type { ClientRelay } from "./relay/client-relay";
export { toCallToolResult, toMcpContent, toMcpTool } from "./tools/tool-mapping";
