/**
 * What the ledger carries: anything with a qualified `name` and a parameter
 * schema. The ledger never calls it, so a deck card, a plain descriptor or a
 * test double all fit.
 */
export interface LedgerCapability {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: unknown;
}

/**
 * A capability as it is written to disk: the data a resolver needs to find
 * (or rebuild) the live capability. Extra fields a `describe` function adds
 * ride along and come back to the resolver untouched.
 */
export interface CapabilityDescriptor {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: unknown;
  readonly [extra: string]: unknown;
}

/** Turns a live capability into what is persisted for it. */
export type DescribeCapability<C> = (capability: C) => CapabilityDescriptor;

/**
 * The default `describe`: the capability's `name`, its `description` when it
 * has a string one, and its `parameters` when present. Nothing else (runners,
 * closures) is copied, so any capability serialises.
 */
export function describeCapability(
  capability: LedgerCapability & { readonly description?: unknown },
): CapabilityDescriptor {
  const descriptor: { name: string; description?: string; parameters?: unknown } = { name: capability.name };
  if (typeof capability.description === "string") descriptor.description = capability.description;
  if (capability.parameters !== undefined) descriptor.parameters = capability.parameters;
  return descriptor;
}
