/**
 * The fault model: every failure in the bridge is one `ProtocolFault`,
 * discriminated by `kind`. Callers branch on the kind, never on message text,
 * so the contract survives a change of SDK and its error taxonomy.
 */

/**
 * The closed set of fault kinds, in a stable order. `unauthorized`: the server
 * wants credentials the bridge does not have (or that stopped working); the
 * user fixes it by signing in, not by restarting anything.
 */
export const FAULT_KINDS = [
  "transport",
  "protocol",
  "timeout",
  "tool-error",
  "not-connected",
  "spawn-failed",
  "unauthorized",
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** True when `value` names one of the fault kinds. */
export function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === "string" && (FAULT_KINDS as readonly string[]).includes(value);
}

/**
 * The one error type of the bridge. `message` carries no kind prefix; the
 * kind lives on `.kind`, the triggering value on the standard `cause`.
 */
export class ProtocolFault extends Error {
  override readonly name = "ProtocolFault";
  readonly kind: FaultKind;

  constructor(kind: FaultKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }
}

/** Terse constructor: `protocolFault("timeout", "tools/call took over 30s", err)`. */
export function protocolFault(kind: FaultKind, message: string, cause?: unknown): ProtocolFault {
  return new ProtocolFault(kind, message, cause === undefined ? undefined : { cause });
}

/**
 * Narrowing guard. Structural as well as nominal, so a fault minted by a second
 * copy of this package (two versions in one tree) is still recognised.
 */
export function isProtocolFault(value: unknown): value is ProtocolFault {
  if (value instanceof ProtocolFault) return true;
  return value instanceof Error && value.name === "ProtocolFault" && isFaultKind((value as { kind?: unknown }).kind);
}
