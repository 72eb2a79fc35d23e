/**
 * A mounted MCP box folded into the enrollment ledger, kept current. Each time
 * the box's descriptors change (a server's `tools/list_changed`), the new set is
 * diffed against what this bridge has live: vanished tools become `retire`
 * events, new or changed ones `enroll` events. The latest ledger is always the
 * source of truth, and the bridge is a `CapabilitySource`, so a deck that
 * grafted it serves the current tools and hears every change.
 */
import { sameJson, type ServerFleet, type ToolBox } from "@indus/contract";
import { type BridgeKey, BridgeLedger, enrollmentKey } from "@indus/ledger";
import type { CapabilitySource } from "../tool-deck";
import { type BridgeCapability, bridgeBoxToCapabilities } from "./bridge-capability";

export type DeckBridgeLedger = BridgeLedger<BridgeCapability>;

function sameTool(a: BridgeCapability, b: BridgeCapability): boolean {
  return (
    a.description === b.description &&
    sameJson(a.annotations ?? null, b.annotations ?? null) &&
    sameJson(a.wire ?? null, b.wire ?? null)
  );
}

export class LiveBridge implements CapabilitySource {
  #ledger: DeckBridgeLedger;
  readonly #owned = new Set<BridgeKey>();
  readonly #detached = new Set<string>();
  readonly #listeners = new Set<() => void>();
  readonly #off: (() => void) | undefined;
  /** Enroll events this bridge has appended so far. */
  enrolled = 0;

  constructor(
    initial: DeckBridgeLedger,
    readonly box: ToolBox,
    readonly fleet?: ServerFleet,
  ) {
    this.#ledger = initial;
    this.sync();
    this.#off = box.onDescriptorsChanged?.(() => {
      if (this.sync()) this.#emit();
    });
  }

  /** The current ledger (a new value after every change). */
  ledger(): DeckBridgeLedger {
    return this.#ledger;
  }

  /** The live tools this bridge enrolled (a ledger passed in may hold others; they are not served twice). */
  capabilities(): readonly BridgeCapability[] {
    const out: BridgeCapability[] = [];
    for (const [key, cap] of this.#ledger.snapshot.live) if (this.#owned.has(key)) out.push(cap);
    return out;
  }

  /** The ledger: a new value after every change of the tools this bridge serves. */
  revision(): unknown {
    return this.#ledger;
  }

  onChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Retires the servers' tools (every server of the fleet when none are named)
   * and closes their endpoints; the whole fleet is torn down when all go.
   */
  async detach(servers?: readonly string[]): Promise<DeckBridgeLedger> {
    const all = servers === undefined;
    const names =
      servers ??
      (this.fleet ? [...this.fleet.status().keys()] : [...new Set(this.capabilities().map((c) => c.server))]);
    for (const key of [...this.#owned]) {
      if (names.includes(this.#ledger.snapshot.owners.get(key) ?? "")) this.#owned.delete(key);
    }
    let next = this.#ledger;
    for (const server of names) {
      this.#detached.add(server);
      next = next.withdrawServer(server);
    }
    const changed = next !== this.#ledger;
    this.#ledger = next;
    if (changed) this.#emit();
    if (all) {
      this.#off?.();
      await this.fleet?.tearDown().catch(() => undefined);
    } else {
      await Promise.all(
        names.map(
          (server) =>
            this.fleet
              ?.endpoint(server)
              ?.close()
              .catch(() => undefined) ?? Promise.resolve(),
        ),
      );
    }
    return this.#ledger;
  }

  /** Folds the box's current descriptors into the ledger; true when anything changed. */
  private sync(): boolean {
    const fresh = new Map<BridgeKey, BridgeCapability>();
    for (const cap of bridgeBoxToCapabilities(this.box)) {
      if (!this.#detached.has(cap.server)) fresh.set(enrollmentKey(cap.server, cap), cap);
    }
    const before = this.#ledger;
    let next = before;
    for (const key of [...this.#owned]) {
      if (!fresh.has(key)) {
        next = next.retire(key, before.snapshot.owners.get(key) ?? "");
        this.#owned.delete(key);
      }
    }
    for (const [key, cap] of fresh) {
      const current = next.snapshot.live.get(key);
      if (current && this.#owned.has(key) && sameTool(current, cap)) continue;
      next = next.enroll({ capability: cap, server: cap.server, key });
      this.#owned.add(key);
      this.enrolled += 1;
    }
    this.#ledger = next;
    return next !== before;
  }

  #emit(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // a subscriber's bug must not break the bridge
      }
    }
  }
}

export function emptyBridgeLedger(): DeckBridgeLedger {
  return BridgeLedger.empty<BridgeCapability>();
}
