/**
 * Fleet's one link to `@indus/endpoint`: the default endpoint factory, plus
 * the endpoint's naming hash and URI-template helpers. Everything else in
 * fleet, its published types too, types against the contract (`McpEndpoint`,
 * `EndpointOptions`), so the MCP SDK stays behind `@indus/endpoint` and a
 * fake endpoint (`@indus/fleet/testing`) can stand in.
 * The layering check allows the fleet → endpoint edge from this file only.
 */
import type { EndpointOptions, McpEndpoint, ServerConfig } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";

export { shortHash, uriTemplateMatches } from "@indus/endpoint";

/** Builds one endpoint per server config; the seam for fakes and in-process transports. */
export type CreateEndpoint = (config: ServerConfig, options: EndpointOptions) => McpEndpoint;

/** A real MCP client connection (stdio, SSE or Streamable HTTP) per server. */
export const defaultCreateEndpoint: CreateEndpoint = (config, options) =>
  createServerEndpoint(config, undefined, options);
