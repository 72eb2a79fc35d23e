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

/**
 * How a server is doing, as a user is told: its phase, except that a ready
 * server whose tool listing failed, or whose data had to be cut or repaired,
 * is `degraded` (usable, but not everything it offers arrived).
 */
export type ServerCondition = EndpointPhase | "degraded";

export function serverCondition(view: {
  readonly phase: EndpointPhase;
  readonly listFault?: unknown;
  readonly issues?: readonly unknown[];
}): ServerCondition {
  if (view.phase !== "ready") return view.phase;
  return view.listFault !== undefined || (view.issues?.length ?? 0) > 0 ? "degraded" : "ready";
}
