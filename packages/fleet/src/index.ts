/**
 * @indus/fleet: many MCP servers at once with per-server failure isolation,
 * mounted as one tool box with a resource and prompt catalog.
 */
export { EndpointFleet, defaultConcurrency, startServerFleet } from "./server-fleet";
export type { AfterOpen, FleetOptions } from "./server-fleet";
export type { CreateEndpoint } from "./default-endpoint";
export type { EndpointOptions } from "@indus/contract";
export { fleetMount, mountProtocolBridge } from "./mount";
export type { FleetMounted, MountedProtocolBridge } from "./mount";
export { MountedToolBox } from "./mounted-box";
export type { MountedBoxOptions } from "./mounted-box";
export type { CatalogOptions } from "./gateway-catalog";
export { NAMING_MODES, nameClashFault, nameClashOf } from "./names";
export type { ClashKind, NameClash, NamingMode } from "./names";
export { FleetCatalog, GATEWAY_URI_PREFIX, gatewayUri, parseGatewayUri } from "./gateway-catalog";
export { projectBlock, projectResult } from "./content-projection";
export { toolFilter } from "./tool-filter";
export type { ToolFilter } from "./tool-filter";

// The config helpers and contract types a fleet user needs, so `@indus/fleet` is the only install.
export { sseServer, stdioServer, streamableHttpServer } from "@indus/contract";
export type {
  BridgeConfig,
  FleetStatus,
  ServerConfig,
  ServerConfigInput,
  ToolBox,
  ToolCall,
  ToolDescriptor,
  ToolOutcome,
} from "@indus/contract";
