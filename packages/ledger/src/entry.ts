import type { LedgerCapability } from "./capability";
import type { BridgeKey } from "./keys";

/** The two things that can happen to a key. A closed set. */
export type BridgeOp = "enroll" | "retire";

export const BRIDGE_OPS: readonly BridgeOp[] = Object.freeze(["enroll", "retire"] as const);

interface EntryBase {
  readonly key: BridgeKey;
  /** The server the event is about (on a retire: for the audit trail only). */
  readonly server: string;
  /** Position in the log; unique and increasing in any log a ledger writes. */
  readonly seq: number;
  /** When it was recorded: ISO-8601 UTC. */
  readonly at: string;
}

/** Makes `key` live with `capability` (an upsert: a live key keeps its place). */
export interface EnrollEntry<C extends LedgerCapability = LedgerCapability> extends EntryBase {
  readonly op: "enroll";
  readonly capability: C;
}

/** Removes `key` from the live set; a key that is not live is a recorded no-op. */
export interface RetireEntry extends EntryBase {
  readonly op: "retire";
}

/** One append-only event of the ledger's log. */
export type BridgeEntry<C extends LedgerCapability = LedgerCapability> = EnrollEntry<C> | RetireEntry;

/** The fields an enrollment supplies; the ledger stamps `op`, `seq` and `at`. */
export interface EnrollRequest<C extends LedgerCapability = LedgerCapability> {
  readonly capability: C;
  readonly server: string;
  /** Defaults to the content key (`enrollmentKey(server, capability)`). */
  readonly key?: BridgeKey;
}

/** The current instant as the ledger records it: ISO-8601 UTC. */
export function nowIso(): string {
  return new Date().toISOString();
}
