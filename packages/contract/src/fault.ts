/**
 * The fault model: every failure in the bridge is one `ProtocolFault`,
 * discriminated by `kind`. Callers branch on the kind, never on message text,
 * so the contract survives a change of SDK and its error taxonomy.
 */

import { brandFault, faultBrand, hasFaultBrand } from "./brand";
import type { JsonValue } from "./json";

/**
 * The closed set of fault kinds, in a stable order. `unauthorized`: the server
 * wants credentials the bridge does not have (or that stopped working); the
 * user fixes it by signing in, not by restarting anything. `withheld`: the
 * trust gate holds the definition back (changed since it was pinned, new, or
 * flagged); the user approves it with `indusr mcp approve`.
 */
export const FAULT_KINDS = [
  "transport",
  "protocol",
  "timeout",
  "tool-error",
  "not-connected",
  "spawn-failed",
  "unauthorized",
  "withheld",
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** True when `value` names one of the fault kinds. */
export function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === "string" && (FAULT_KINDS as readonly string[]).includes(value);
}

/**
 * What a fault knows beyond its kind, as fields, so callers never parse
 * `message` for the server id or the exit code.
 */
export interface FaultDetails {
  /** The server id the fault concerns. */
  readonly server?: string;
  /** The exit code of a server process that died (absent when a signal killed it). */
  readonly exitCode?: number;
  /** The last lines the server wrote to stderr, oldest first. */
  readonly stderrTail?: readonly string[];
  /** Structured data from the other side, e.g. a JSON-RPC error's `data`. */
  readonly data?: JsonValue;
  /** The JSON-RPC error code the server answered with, so a gateway can pass it on unchanged. */
  readonly rpcCode?: number;
}

const PROTOCOL_FAULT_BRAND = faultBrand("ProtocolFault");

/**
 * The one error type of the bridge. `message` carries no kind prefix; the
 * kind lives on `.kind`, the triggering value on the standard `cause`, and
 * what is known about the server on the optional `FaultDetails` fields.
 */
export class ProtocolFault extends Error implements FaultDetails {
  override readonly name = "ProtocolFault";
  readonly kind: FaultKind;
  declare readonly server?: string;
  declare readonly exitCode?: number;
  declare readonly stderrTail?: readonly string[];
  declare readonly data?: JsonValue;
  declare readonly rpcCode?: number;

  constructor(kind: FaultKind, message: string, options?: { readonly cause?: unknown } & FaultDetails) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options?.server !== undefined) this.server = options.server;
    if (options?.exitCode !== undefined) this.exitCode = options.exitCode;
    if (options?.stderrTail !== undefined) this.stderrTail = options.stderrTail;
    if (options?.data !== undefined) this.data = options.data;
    if (options?.rpcCode !== undefined) this.rpcCode = options.rpcCode;
  }

  /** True for a fault minted by any copy of `@indus/contract` (brand check, not `instanceof`). */
  static isInstance(value: unknown): value is ProtocolFault {
    return hasFaultBrand(value, PROTOCOL_FAULT_BRAND);
  }
}
brandFault(ProtocolFault, "ProtocolFault");

/** Terse constructor: `protocolFault("timeout", "tools/call took over 30s", err)`. */
export function protocolFault(
  kind: FaultKind,
  message: string,
  cause?: unknown,
  details?: FaultDetails,
): ProtocolFault {
  return new ProtocolFault(kind, message, { ...details, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Narrowing guard. By brand (any copy of this package) and, for copies older
 * than the brand, by shape.
 */
export function isProtocolFault(value: unknown): value is ProtocolFault {
  if (ProtocolFault.isInstance(value)) return true;
  return value instanceof Error && value.name === "ProtocolFault" && isFaultKind((value as { kind?: unknown }).kind);
}
