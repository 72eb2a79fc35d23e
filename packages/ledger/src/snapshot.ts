import type { LedgerCapability } from "./capability";
import type { BridgeEntry } from "./entry";
import type { BridgeKey } from "./keys";
import { Lineage, type Holding } from "./lineage";

/**
 * The folded view of a log. Every map is read-only (there is no `set` or
 * `delete` to call) and never changes once handed out.
 */
export interface LedgerSnapshot<C extends LedgerCapability = LedgerCapability> {
  /** Live key → capability, in the order keys became live (an upsert keeps its place). */
  readonly live: ReadonlyMap<BridgeKey, C>;
  /** Live key → the server it was enrolled under; same order as `live`. */
  readonly owners: ReadonlyMap<BridgeKey, string>;
  /** Server → how many keys it has live, in order of each server's first live key. */
  readonly byServer: ReadonlyMap<string, number>;
  /** The highest `seq` folded (0 for an empty log). */
  readonly highWater: number;
}

/**
 * The one sanctioned reducer: pure and total. Sorts a copy of `entries` by
 * `seq` (ties keep input order; a ledger never writes a tie), then folds: a
 * later enroll of a key replaces its capability in place, a retire removes
 * the key without reordering the survivors, a retire of an unknown key
 * changes nothing. The result does not depend on the input's order when seqs
 * are unique. O(n) for sorted input, O(n log n) otherwise.
 */
export function reduceLedger<C extends LedgerCapability>(entries: Iterable<BridgeEntry<C>>): LedgerSnapshot<C> {
  const sorted = sortedBySeq(entries);
  const lineage = new Lineage<C>({ keepHistory: false });
  let highWater = 0;
  for (const entry of sorted) {
    lineage.apply(entry);
    if (entry.seq > highWater) highWater = entry.seq;
  }
  return snapshotAt(lineage, lineage.length, highWater);
}

/**
 * A copy of `entries` in seq order, stable. Input already in order is only
 * copied; dense integer seqs (what a ledger writes) are placed by a counting
 * sort, O(n); anything else falls back to a comparison sort.
 */
export function sortedBySeq<E extends { readonly seq: number }>(entries: Iterable<E>): E[] {
  const copy = Array.from(entries);
  const length = copy.length;
  // One pass reads every seq (into a flat array, so the sort need not chase the entries again).
  const seqs = new Float64Array(length);
  let inOrder = true;
  let dense = true;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < length; i++) {
    const seq = (copy[i] as E).seq;
    seqs[i] = seq;
    if (i > 0 && !((seqs[i - 1] as number) <= seq)) inOrder = false;
    if (!Number.isSafeInteger(seq)) dense = false;
    else {
      if (seq < min) min = seq;
      if (seq > max) max = seq;
    }
  }
  if (inOrder) return copy;
  if (dense && max - min <= 4 * length + 16) return countingSort(copy, seqs, min, max);
  return copy.sort(bySeq);
}

/** Stable counting sort of `items` by their integer `seqs`, all in [min, max]. */
function countingSort<E>(items: readonly E[], seqs: Float64Array, min: number, max: number): E[] {
  const length = items.length;
  const starts = new Uint32Array(max - min + 2);
  for (let i = 0; i < length; i++) starts[(seqs[i] as number) - min + 1]! += 1;
  for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1] as number;
  const order = new Uint32Array(length);
  for (let i = 0; i < length; i++) order[starts[(seqs[i] as number) - min]!++] = i;
  const out: E[] = [];
  for (let k = 0; k < length; k++) out.push(items[order[k] as number] as E);
  return out;
}

function bySeq(a: { readonly seq: number }, b: { readonly seq: number }): number {
  return a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0;
}

/** The snapshot of one version of a lineage. Lookups are answered in place; iteration materialises once. */
export function snapshotAt<C extends LedgerCapability>(
  lineage: Lineage<C>,
  version: number,
  highWater: number,
): LedgerSnapshot<C> {
  return new VersionSnapshot(lineage, version, highWater);
}

/**
 * One object per snapshot; its maps are made on first read (a step that only
 * enrolls pays for none of them). All state is #private behind getters, so
 * nothing can be written to it (no need for the cost of `Object.freeze`).
 */
class VersionSnapshot<C extends LedgerCapability> implements LedgerSnapshot<C> {
  readonly #highWater: number;
  readonly #lineage: Lineage<C>;
  readonly #version: number;
  #live: ReadonlyMap<BridgeKey, C> | undefined;
  #owners: ReadonlyMap<BridgeKey, string> | undefined;
  #byServer: ReadonlyMap<string, number> | undefined;

  constructor(lineage: Lineage<C>, version: number, highWater: number) {
    this.#highWater = highWater;
    this.#lineage = lineage;
    this.#version = version;
  }

  get highWater(): number {
    return this.#highWater;
  }

  get live(): ReadonlyMap<BridgeKey, C> {
    this.#live ??= new VersionMap(this.#lineage, this.#version, pickCapability);
    return this.#live;
  }

  get owners(): ReadonlyMap<BridgeKey, string> {
    this.#owners ??= new VersionMap(this.#lineage, this.#version, pickServer);
    return this.#owners;
  }

  get byServer(): ReadonlyMap<string, number> {
    if (this.#byServer === undefined) {
      const counts = new Map<string, number>();
      for (const [, holding] of this.#lineage.liveAt(this.#version))
        counts.set(holding.server, (counts.get(holding.server) ?? 0) + 1);
      this.#byServer = new ReadonlyMapView(counts);
    }
    return this.#byServer;
  }

  toJSON(): { live: [BridgeKey, C][]; owners: [BridgeKey, string][]; byServer: [string, number][]; highWater: number } {
    return { live: [...this.live], owners: [...this.owners], byServer: [...this.byServer], highWater: this.highWater };
  }
}

function pickCapability<C>(holding: Holding<C>): C {
  return holding.capability;
}

function pickServer(holding: Holding<unknown>): string {
  return holding.server;
}

/**
 * A `ReadonlyMap` over a private `Map`: the reader cannot reach the map to
 * mutate it, and `instanceof` aside it behaves like one.
 */
export class ReadonlyMapView<K, V> implements ReadonlyMap<K, V> {
  readonly #map: Map<K, V>;

  constructor(map: Map<K, V>) {
    this.#map = map;
  }

  get size(): number {
    return this.#map.size;
  }
  get(key: K): V | undefined {
    return this.#map.get(key);
  }
  has(key: K): boolean {
    return this.#map.has(key);
  }
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#map) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[K, V]> {
    return this.#map.entries();
  }
  keys(): MapIterator<K> {
    return this.#map.keys();
  }
  values(): MapIterator<V> {
    return this.#map.values();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#map.entries();
  }
  get [Symbol.toStringTag](): string {
    return "ReadonlyMap";
  }
  toJSON(): [K, V][] {
    return [...this.#map];
  }
}

/**
 * One version of a lineage seen as a map: `get`, `has` and `size` are
 * answered from the lineage directly (O(1) at the tip); iterating builds the
 * map once, on first use, and keeps it.
 */
class VersionMap<C extends LedgerCapability, V> implements ReadonlyMap<BridgeKey, V> {
  readonly #lineage: Lineage<C>;
  readonly #version: number;
  readonly #pick: (holding: Holding<C>) => V;
  #built: Map<BridgeKey, V> | undefined;

  constructor(lineage: Lineage<C>, version: number, pick: (holding: Holding<C>) => V) {
    this.#lineage = lineage;
    this.#version = version;
    this.#pick = pick;
  }

  get size(): number {
    return this.#lineage.sizeAt(this.#version);
  }
  get(key: BridgeKey): V | undefined {
    const holding = this.#lineage.lookup(key, this.#version);
    return holding === undefined ? undefined : this.#pick(holding);
  }
  has(key: BridgeKey): boolean {
    return this.#lineage.lookup(key, this.#version) !== undefined;
  }
  forEach(callback: (value: V, key: BridgeKey, map: ReadonlyMap<BridgeKey, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#map()) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[BridgeKey, V]> {
    return this.#map().entries();
  }
  keys(): MapIterator<BridgeKey> {
    return this.#map().keys();
  }
  values(): MapIterator<V> {
    return this.#map().values();
  }
  [Symbol.iterator](): MapIterator<[BridgeKey, V]> {
    return this.#map().entries();
  }
  get [Symbol.toStringTag](): string {
    return "ReadonlyMap";
  }
  toJSON(): [BridgeKey, V][] {
    return [...this.#map()];
  }

  #map(): Map<BridgeKey, V> {
    if (this.#built === undefined) {
      const built = new Map<BridgeKey, V>();
      for (const [key, holding] of this.#lineage.liveAt(this.#version)) built.set(key, this.#pick(holding));
      this.#built = built;
    }
    return this.#built;
  }
}
