/**
 * The join point: start a fleet, list each ready server's tools (inside its
 * connect slot, so listing overlaps other servers' startup), and hand back
 * the tools as one box together with the live fleet.
 */
import type { BridgeConfig, ServerConfig } from "@indus/contract";
import { MountedToolBox } from "./mounted-box";
import { EndpointFleet, type FleetOptions } from "./server-fleet";

/** What `fleetMount` hands back: the contract's `MountedServers`, with the fleet's own types. */
export interface FleetMounted {
  readonly box: MountedToolBox;
  readonly fleet: EndpointFleet;
  readonly settled: Promise<void>;
}

export interface MountedProtocolBridge {
  readonly box: MountedToolBox;
  readonly fleet: EndpointFleet;
}

/** Never throws: servers that are not ready, or whose listing fails, just contribute no tools. */
export async function mountProtocolBridge(
  config: BridgeConfig,
  options?: FleetOptions,
): Promise<MountedProtocolBridge> {
  const fleet = new EndpointFleet(options, (endpoint) => endpoint.listTools());
  const box = new MountedToolBox(fleet, options?.names ? { names: options.names } : {});
  try {
    await fleet.start(config);
  } catch {
    // start() does not throw; this is belt and braces for a caller's odd config.
  }
  await box.settled();
  return { box, fleet };
}

/**
 * The contract's mount port backed by a fleet: what a host passes to the deck
 * so the deck can mount servers without depending on `@indus/fleet`. Each call
 * starts a fresh fleet and returns at once; `settled` resolves when every
 * server is ready (tools listed) or faulted. Assignable to `MountServers`;
 * typed with the fleet's classes so a host can reach the mounted box (name
 * clashes, the catalog) behind what it passed the deck.
 */
export function fleetMount(options?: FleetOptions): (servers: readonly ServerConfig[]) => FleetMounted {
  return (servers) => {
    const fleet = new EndpointFleet(options, (endpoint) => endpoint.listTools());
    const box = new MountedToolBox(fleet, options?.names ? { names: options.names } : {});
    const settled = fleet
      .start({ servers })
      .catch(() => undefined)
      .then(() => box.settled())
      .catch(() => undefined);
    return { box, fleet, settled };
  };
}
