import type { DescribeCapability, LedgerCapability } from "./capability";
import { nowIso, type BridgeEntry, type EnrollEntry, type EnrollRequest, type RetireEntry } from "./entry";
import { enrollmentKey, type BridgeKey } from "./keys";
import { Lineage } from "./lineage";
import { parseLog, serializeLog, type ParsedLog, type ResolveCapability } from "./json-lines";
import { snapshotAt, sortedBySeq, type LedgerSnapshot } from "./snapshot";

/**
 * The enrollment ledger as an immutable value. The log is the source of
 * truth; the snapshot is its fold. Every transition returns a new ledger and
 * leaves this one exactly as it was.
 *
 * Cost: values share one append-only lineage (see `Lineage`), so a
 * transition from the newest value is O(1) amortised (`withdrawServer` also
 * scans the live set once), and reads answer in place: `snapshot.live.get`,
 * `.has`, `.size` and `nextSeq` are O(1); anything that lists (`log`,
 * `liveCapabilities`, iterating a snapshot map) is built once per value and
 * kept. Transitioning from a value that is no longer the newest forks: it
 * replays that value's own log once, O(its length).
 */
export class BridgeLedger<C extends LedgerCapability = LedgerCapability> {
  readonly #lineage: Lineage<C>;
  readonly #version: number;
  readonly #highWater: number;
  #snapshot: LedgerSnapshot<C> | undefined;
  #log: readonly BridgeEntry<C>[] | undefined;
  #live: readonly C[] | undefined;

  private constructor(lineage: Lineage<C>, version: number, highWater: number) {
    this.#lineage = lineage;
    this.#version = version;
    this.#highWater = highWater;
    // Not frozen: every field is #private, so there is nothing to write to,
    // and freezing each step's value measurably slows enrolling.
  }

  /** An empty ledger; the first entry gets seq 1. */
  static empty<C extends LedgerCapability = LedgerCapability>(): BridgeLedger<C> {
    return new BridgeLedger<C>(new Lineage<C>(), 0, 0);
  }

  /**
   * Rehydrates a persisted log: entries are copied (and frozen) in seq order,
   * folded, and numbering resumes one past the highest seq. Deterministic:
   * the same entries in any order give the same ledger. O(n) for a log
   * already in order.
   */
  static fromLog<C extends LedgerCapability>(log: Iterable<BridgeEntry<C>>): BridgeLedger<C> {
    return BridgeLedger.#replay(sortedBySeq(log), freezeEntry);
  }

  /**
   * Reads a log persisted with `toJsonLines`/`serializeLog` and replays it.
   * Never throws: `ledger` is the replay of every entry before the first bad
   * line, `entries` are those entries, and `error` (when present) names the
   * bad line and what is wrong with it. Check `error` before trusting that
   * the whole file was read.
   */
  static fromJsonLines<C extends LedgerCapability>(text: string, resolve: ResolveCapability<C>): LedgerLoad<C> {
    const parsed = parseLog(text, resolve);
    // parseLog hands back frozen entries in strictly increasing seq order.
    const ledger = BridgeLedger.#replay(parsed.entries, (entry) => entry);
    return Object.freeze({ ...parsed, ledger });
  }

  static #replay<C extends LedgerCapability>(
    ordered: Iterable<BridgeEntry<C>>,
    own: (entry: BridgeEntry<C>) => BridgeEntry<C>,
  ): BridgeLedger<C> {
    const lineage = new Lineage<C>();
    let highWater = 0;
    for (const entry of ordered) {
      lineage.apply(own(entry));
      if (entry.seq > highWater) highWater = entry.seq;
    }
    return new BridgeLedger(lineage, lineage.length, highWater);
  }

  /** The log as JSON Lines (see `serializeLog`). */
  toJsonLines(describe?: DescribeCapability<C>): string {
    return serializeLog(this.log, describe);
  }

  /** The seq the next entry will get: one past the high-water mark. */
  get nextSeq(): number {
    return this.#highWater + 1;
  }

  /** How many entries the log holds, without copying it. */
  get logLength(): number {
    return this.#version;
  }

  /** The log, in seq order, frozen. Copied out once per value (O(n)), then kept. */
  get log(): readonly BridgeEntry<C>[] {
    this.#log ??= Object.freeze(this.#lineage.entries.slice(0, this.#version));
    return this.#log;
  }

  /** The entries with a seq above `seq`, in order: what to append to a store that holds up to `seq`. */
  logAfter(seq: number): readonly BridgeEntry<C>[] {
    const entries = this.#lineage.entries;
    let lo = 0;
    let hi = this.#version;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((entries[mid] as BridgeEntry<C>).seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return Object.freeze(entries.slice(lo, this.#version));
  }

  /** The folded view. Created on first read, then kept; it never changes. */
  get snapshot(): LedgerSnapshot<C> {
    this.#snapshot ??= snapshotAt(this.#lineage, this.#version, this.#highWater);
    return this.#snapshot;
  }

  /** Every live capability, in live order: what a host grafts onto its catalog. */
  liveCapabilities(): readonly C[] {
    if (this.#live === undefined) {
      const live: C[] = [];
      for (const [, holding] of this.#lineage.liveAt(this.#version)) live.push(holding.capability);
      this.#live = Object.freeze(live);
    }
    return this.#live;
  }

  /** The live capabilities enrolled under `server`, in live order. */
  liveCapabilitiesForServer(server: string): readonly C[] {
    const live: C[] = [];
    for (const [, holding] of this.#lineage.liveAt(this.#version))
      if (holding.server === server) live.push(holding.capability);
    return Object.freeze(live);
  }

  /**
   * Enrolls a capability: an upsert on `req.key` (default: the content key of
   * the capability under `req.server`). A key already live keeps its place
   * and takes the new capability; a new key joins the end.
   */
  enroll(req: EnrollRequest<C>, at: string = nowIso()): BridgeLedger<C> {
    const entry: EnrollEntry<C> = {
      op: "enroll",
      key: req.key ?? enrollmentKey(req.server, req.capability),
      server: req.server,
      capability: req.capability,
      seq: this.nextSeq,
      at,
    };
    return this.#append([Object.freeze(entry)]);
  }

  /**
   * Retires a key: it leaves the live set, survivors keep their order. An
   * unknown (or already retired) key is still recorded, for the audit trail,
   * and changes nothing else. `server` is recorded, not checked.
   */
  retire(key: BridgeKey, server: string, at: string = nowIso()): BridgeLedger<C> {
    const entry: RetireEntry = { op: "retire", key, server, seq: this.nextSeq, at };
    return this.#append([Object.freeze(entry)]);
  }

  /**
   * Retires every key `server` has live, in live order, one entry each with
   * consecutive seqs and one `at`: the disconnect counterpart of grafting a
   * server. A server with nothing live leaves the ledger as it is (this value).
   */
  withdrawServer(server: string, at: string = nowIso()): BridgeLedger<C> {
    const retires: RetireEntry[] = [];
    let seq = this.nextSeq;
    for (const [key, holding] of this.#lineage.liveAt(this.#version)) {
      if (holding.server === server)
        retires.push(Object.freeze<RetireEntry>({ op: "retire", key, server, seq: seq++, at }));
    }
    return retires.length === 0 ? this : this.#append(retires);
  }

  /** Appends in place when this value is the tip of its lineage, otherwise forks first. */
  #append(entries: readonly BridgeEntry<C>[]): BridgeLedger<C> {
    const lineage = this.#lineage.length === this.#version ? this.#lineage : this.#lineage.forkAt(this.#version);
    let highWater = this.#highWater;
    for (const entry of entries) {
      lineage.apply(entry);
      if (entry.seq > highWater) highWater = entry.seq;
    }
    return new BridgeLedger(lineage, lineage.length, highWater);
  }
}

/** A ledger read back from JSON Lines, with what was read and where reading stopped. */
export interface LedgerLoad<C extends LedgerCapability> extends ParsedLog<C> {
  readonly ledger: BridgeLedger<C>;
}

/** A frozen copy holding only the entry's own fields. */
function freezeEntry<C extends LedgerCapability>(entry: BridgeEntry<C>): BridgeEntry<C> {
  if (entry.op === "enroll") {
    const { op, key, server, capability, seq, at } = entry;
    return Object.freeze<EnrollEntry<C>>({ op, key, server, capability, seq, at });
  }
  const { op, key, server, seq, at } = entry;
  return Object.freeze({ op, key, server, seq, at } as RetireEntry);
}
