/**
 * Per-server tool selection from a config's `includeTools` / `excludeTools`
 * globs, matched against the server-side tool name (the config is per server,
 * so the server prefix would add nothing). Exclude wins over include; without
 * `includeTools` every tool is included.
 */
import picomatch from "picomatch";
import type { ServerConfig } from "@indus/contract";

export type ToolFilter = (serverSideName: string) => boolean;

export function toolFilter(config: Pick<ServerConfig, "includeTools" | "excludeTools">): ToolFilter {
  const include = config.includeTools ? picomatch(config.includeTools, { dot: true }) : undefined;
  const exclude =
    config.excludeTools && config.excludeTools.length > 0 ? picomatch(config.excludeTools, { dot: true }) : undefined;
  return (name) => (include ? include(name) : true) && !(exclude ? exclude(name) : false);
}
