/**
 * The name clashes standing right now (as-is naming), per kind of item, and
 * who wants to hear of new ones. Each listing replaces its kind's clashes;
 * listeners hear only of a clash that was not already standing, so a gateway
 * warns once per clash, not once per re-listing.
 */
import type { ProtocolFault } from "@indus/contract";
import { clashKey, nameClashFault, type ClashKind, type NameClash } from "./names";

export class ClashLog {
  private readonly standing = new Map<ClashKind, Map<string, NameClash>>();
  private readonly listeners = new Set<(fault: ProtocolFault) => void>();

  /** Replace the standing clashes of one kind; tell listeners of the new ones. */
  update(kind: ClashKind, clashes: readonly NameClash[]): void {
    const before = this.standing.get(kind) ?? new Map<string, NameClash>();
    const now = new Map(clashes.map((clash) => [clashKey(clash), clash]));
    this.standing.set(kind, now);
    for (const [key, clash] of now) {
      if (before.has(key)) continue;
      const fault = nameClashFault(clash);
      for (const listener of this.listeners) {
        try {
          listener(fault);
        } catch {
          // A listener's bug must not break listing.
        }
      }
    }
  }

  /** Every standing clash, as faults (tools, prompts, resources, templates). */
  faults(): ProtocolFault[] {
    return [...this.standing.values()].flatMap((clashes) => [...clashes.values()].map(nameClashFault));
  }

  onClash(listener: (fault: ProtocolFault) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
