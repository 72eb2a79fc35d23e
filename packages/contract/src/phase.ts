/**
 * The endpoint lifecycle as an explicit state machine rather than boolean
 * flags: `idle → connecting → ready → closing → closed`, any failure → `faulted`.
 */
export const ENDPOINT_PHASES = ["idle", "connecting", "ready", "closing", "closed", "faulted"] as const;

export type EndpointPhase = (typeof ENDPOINT_PHASES)[number];

/** Only a `ready` endpoint accepts calls. */
export function isUsablePhase(phase: EndpointPhase): boolean {
  return phase === "ready";
}

/** `closed` and `faulted` are final: an endpoint never leaves them. */
export function isTerminalPhase(phase: EndpointPhase): boolean {
  return phase === "closed" || phase === "faulted";
}
