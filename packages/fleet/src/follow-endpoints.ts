/**
 * Listen to every endpoint of a fleet, including the ones a restart or a
 * reconnect puts in place later: the fleet's endpoints are replaced as
 * objects, so per-endpoint listeners must be attached again each time.
 */
import type { McpEndpoint } from "@indus/contract";
import type { EndpointFleet } from "./server-fleet";

/** `attach` runs for each endpoint (now and after each replacement) and returns its detach, if any. */
export function followEndpoints(
  fleet: EndpointFleet,
  attach: (endpoint: McpEndpoint) => (() => void) | undefined,
  afterReplaced?: () => void,
): () => void {
  let detaches: (() => void)[] = [];
  const attachAll = () => {
    for (const detach of detaches) detach();
    detaches = fleet.endpoints().flatMap((endpoint) => attach(endpoint) ?? []);
  };
  attachAll();
  const offReplaced = fleet.onEndpointsReplaced(() => {
    attachAll();
    afterReplaced?.();
  });
  return () => {
    offReplaced();
    for (const detach of detaches) detach();
  };
}

/** The fleet's endpoints that are connected right now, in config order. */
export function readyEndpoints(fleet: EndpointFleet): McpEndpoint[] {
  return fleet.endpoints().filter((endpoint) => endpoint.phase === "ready");
}
