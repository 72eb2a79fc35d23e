import type { LedgerCapability } from "./capability";
import type { BridgeEntry } from "./entry";
import type { BridgeKey } from "./keys";

/**
 * The fold's working state, built for persistence by "fat nodes".
 *
 * A lineage is one append-only history: the entries in applied (seq) order
 * and, for every key, what it held and when. Nothing in it is ever rewritten
 * in a way an earlier version can see: every change is stamped with the index
 * of the entry that made it, and a *version* `v` (the first `v` entries
 * applied) reads only stamps below `v`. So many ledger values share one
 * lineage, each holding its own version number, and a transition from the
 * newest value (the tip) costs O(1): push the entry, stamp the change.
 * A transition from an older value forks a fresh lineage from its prefix.
 *
 * This is the one fold: `reduceLedger` and every `BridgeLedger` step go
 * through `apply`, so there is a single statement of the semantics.
 * `reduceLedger` only ever reads the final version, so it builds its lineage
 * with `keepHistory: false`: same steps, but superseded holdings and dead
 * slots are dropped instead of kept for older readers.
 * Internal: not exported from the package.
 */
export class Lineage<C extends LedgerCapability> {
  /** Whether versions below the tip stay readable (false: only the tip is ever read). */
  readonly keepHistory: boolean;
  /** The applied entries, in order (when history is kept). Only ever pushed to. */
  readonly entries: BridgeEntry<C>[] = [];
  private applied = 0;
  /** One slot per time a key became live, in the order it did: the live order. */
  readonly slots: Slot<C>[] = [];
  /** Each key's newest slot (older lives hang off `previous`). */
  private readonly newest = new Map<BridgeKey, Slot<C>>();
  /** `sizes[i]`: how many keys are live once `entries[0..i]` are applied. */
  private readonly sizes: number[] = [];
  private live = 0;
  /** Dead slots still in `slots` (compacted away when history is not kept). */
  private dead = 0;

  constructor(options: { readonly keepHistory?: boolean } = {}) {
    this.keepHistory = options.keepHistory ?? true;
  }

  /** How many entries have been applied: the tip version. */
  get length(): number {
    return this.applied;
  }

  /** Replays `entries[0, version)` into a fresh lineage: the fork. O(version). */
  forkAt(version: number): Lineage<C> {
    const fork = new Lineage<C>({ keepHistory: this.keepHistory });
    for (let i = 0; i < version; i++) fork.apply(this.entries[i] as BridgeEntry<C>);
    return fork;
  }

  /**
   * The fold step. Enroll: a live key gets its new holding in place (the slot
   * keeps its position), otherwise a new slot joins the end. Retire: a live
   * key's slot dies; survivors keep their order; an unknown key changes
   * nothing. Any other `op` (only reachable from untyped callers) is a no-op.
   */
  apply(entry: BridgeEntry<C>): void {
    const stamp = this.applied++;
    if (this.keepHistory) this.entries.push(entry);
    const slot = this.newest.get(entry.key);
    const isLive = slot !== undefined && slot.died === ALIVE;
    if (entry.op === "enroll") {
      if (isLive) {
        if (this.keepHistory)
          (slot.older ??= []).push({ at: slot.at, capability: slot.capability, server: slot.server });
        slot.at = stamp;
        slot.capability = entry.capability;
        slot.server = entry.server;
      } else {
        const born: Slot<C> = {
          key: entry.key,
          born: stamp,
          died: ALIVE,
          at: stamp,
          capability: entry.capability,
          server: entry.server,
          older: undefined,
          previous: this.keepHistory ? slot : undefined,
        };
        this.newest.set(entry.key, born);
        this.slots.push(born);
        this.live++;
      }
    } else if (entry.op === "retire" && isLive) {
      slot.died = stamp;
      this.live--;
      if (!this.keepHistory && ++this.dead > 64 && this.dead > this.live) this.compact();
    }
    if (this.keepHistory) this.sizes.push(this.live);
  }

  /** Drops dead slots, keeping the live order (amortised O(1) per retire). */
  private compact(): void {
    let kept = 0;
    for (const slot of this.slots) if (slot.died === ALIVE) this.slots[kept++] = slot;
    this.slots.length = kept;
    this.dead = 0;
  }

  /** How many keys are live at `version`. O(1). */
  sizeAt(version: number): number {
    if (version === this.applied) return this.live;
    return version === 0 ? 0 : (this.sizes[version - 1] as number);
  }

  /**
   * What `key` holds at `version`, if it is live there. O(1) from the tip;
   * from an older version, O(lives since) + O(log upserts) to look back.
   */
  lookup(key: BridgeKey, version: number): Holding<C> | undefined {
    let slot = this.newest.get(key);
    while (slot !== undefined && slot.born >= version) slot = slot.previous;
    if (slot === undefined || slot.died < version) return undefined;
    return holdingAt(slot, version);
  }

  /** Every live key at `version` with its holding, in live order. O(slots born before `version`). */
  *liveAt(version: number): Generator<[BridgeKey, Holding<C>]> {
    for (const slot of this.slots) {
      if (slot.born >= version) return;
      if (slot.died < version) continue;
      yield [slot.key, holdingAt(slot, version)];
    }
  }
}

/**
 * What a live key holds: its capability, the server it was enrolled under, and
 * since when. May be the (mutable) slot itself: read it at once, never keep it.
 */
export interface Holding<C> {
  readonly at: number;
  readonly capability: C;
  readonly server: string;
}

/** One life of a key: from the enroll that made it live to the retire that ended it. */
interface Slot<C> {
  readonly key: BridgeKey;
  readonly born: number;
  /** Stamp of the retire that ended this life; `ALIVE` until then. */
  died: number;
  /** The newest holding, inline (most keys are never upserted). */
  at: number;
  capability: C;
  server: string;
  /** Superseded holdings, oldest first; allocated on the first upsert. */
  older: Holding<C>[] | undefined;
  /** The key's previous life, if it was retired and enrolled again. */
  readonly previous: Slot<C> | undefined;
}

const ALIVE = Number.POSITIVE_INFINITY;

/** The holding of a slot that is live at `version` (so some holding is below it). */
function holdingAt<C>(slot: Slot<C>, version: number): Holding<C> {
  if (slot.at < version) return slot;
  const older = slot.older as Holding<C>[];
  // Last holding stamped below `version`: binary search, the first is at `born`.
  let lo = 0;
  let hi = older.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((older[mid] as Holding<C>).at < version) lo = mid;
    else hi = mid - 1;
  }
  return older[lo] as Holding<C>;
}
