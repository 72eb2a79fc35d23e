/**
 * Servers changing mid-session: a mounted server that dies (or starts
 * reconnecting under its policy) and one that comes back, heard as they
 * happen so the session can say so at once. Endpoints a `/mcp reconnect`
 * puts in place are followed too.
 */
import type { EndpointPhase, McpEndpoint } from "@indus/contract";
import type { ServerReport } from "./boot-types";

/** The part of the fleet this follows. */
export interface PhaseFleet {
  endpoints(): readonly McpEndpoint[];
  onEndpointsReplaced(listener: () => void): () => void;
}

export type ServerChangeListener = (report: ServerReport) => void;

/**
 * Tell `listener` when a ready server stops being ready, and when one that
 * was lost is ready again; returns an unsubscribe.
 */
export function followServerChanges(
  fleet: PhaseFleet,
  reports: () => readonly ServerReport[],
  listener: ServerChangeListener,
): () => void {
  const followed = new Map<McpEndpoint, () => void>();
  /** Endpoints that were ready (only those can be lost: a boot's own connecting is no news), and those lost since. */
  const wasReady = new Set<McpEndpoint>();
  const lost = new Set<McpEndpoint>();
  const tell = (endpoint: McpEndpoint) => {
    const report = reports().find((r) => r.id === endpoint.config.id);
    if (report) listener(report);
  };
  const onPhase = (endpoint: McpEndpoint, phase: EndpointPhase) => {
    if (phase === "ready") {
      wasReady.add(endpoint);
      if (lost.delete(endpoint)) tell(endpoint);
    } else if ((phase === "faulted" || phase === "connecting") && wasReady.has(endpoint) && !lost.has(endpoint)) {
      lost.add(endpoint);
      tell(endpoint);
    }
  };
  const follow = () => {
    for (const endpoint of fleet.endpoints()) {
      if (followed.has(endpoint) || !endpoint.onPhaseChanged) continue;
      if (endpoint.phase === "ready") wasReady.add(endpoint);
      followed.set(
        endpoint,
        endpoint.onPhaseChanged((phase) => onPhase(endpoint, phase)),
      );
    }
  };
  follow();
  const offReplaced = fleet.onEndpointsReplaced(follow);
  return () => {
    offReplaced();
    for (const off of followed.values()) off();
  };
}
