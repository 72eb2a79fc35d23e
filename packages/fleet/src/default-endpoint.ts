/**
 * Fleet's one link to `@indus/endpoint`: the default endpoint factory, plus
 * the endpoint's naming and URI-template helpers. Everything else in fleet
 * types against contract's `McpEndpoint`, so the MCP SDK stays behind
 * `@indus/endpoint` and a fake endpoint (`@indus/fleet/testing`) can stand in.
 * The layering check allows the fleet → endpoint edge from this file only.
 */
import type { McpEndpoint, ServerConfig } from "@indus/contract";
import { createServerEndpoint, type EndpointOptions } from "@indus/endpoint";

export type { EndpointOptions } from "@indus/endpoint";
export { MAX_TOOL_NAME_LENGTH, shortHash, uriTemplateMatches } from "@indus/endpoint";

/** Builds one endpoint per server config; the seam for fakes and in-process transports. */
export type CreateEndpoint = (config: ServerConfig, options: EndpointOptions) => McpEndpoint;

/** A real MCP client connection (stdio, SSE or Streamable HTTP) per server. */
export const defaultCreateEndpoint: CreateEndpoint = (config, options) =>
  createServerEndpoint(config, undefined, options);
