import {
  BridgeLedger,
  asBridgeKey,
  bridgeContentKey,
  reduceLedger,
  type BridgeEntry,
  type LedgerCapability,
} from "@indus/ledger";

interface Tool extends LedgerCapability {
  readonly name: string;
  readonly parameters: { readonly type: string };
  readonly version?: number;
}

const tool = (server: string, name: string, version?: number): Tool => ({
  name: `${server}__${name}`,
  parameters: { type: "object" },
  ...(version === undefined ? {} : { version }),
});
const names = (l: BridgeLedger<Tool>) => l.liveCapabilities().map((c) => c.name);
const AT = "2026-01-02T03:04:05.000Z";

describe("BridgeLedger.empty", () => {
  it("is empty and numbers from 1", () => {
    const l = BridgeLedger.empty<Tool>();
    expect(l.nextSeq).toBe(1);
    expect(l.log).toEqual([]);
    expect(l.logLength).toBe(0);
    expect(l.liveCapabilities()).toEqual([]);
    expect(l.snapshot.live.size).toBe(0);
    expect([...l.snapshot.byServer]).toEqual([]);
    expect(l.snapshot.highWater).toBe(0);
  });
});

describe("enroll", () => {
  it("stamps op, seq and an ISO-8601 UTC at, keyed by content by default", () => {
    const echo = tool("demo", "echo");
    const l = BridgeLedger.empty<Tool>().enroll({ capability: echo, server: "demo" });
    expect(l.log).toHaveLength(1);
    const [entry] = l.log;
    expect(entry).toMatchObject({
      op: "enroll",
      seq: 1,
      server: "demo",
      capability: echo,
      key: bridgeContentKey("demo", "echo", echo.parameters),
    });
    expect(entry?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(l.nextSeq).toBe(2);
  });

  it("upserts on the key: a re-enrolled key keeps its position and takes the new capability", () => {
    let l = BridgeLedger.empty<Tool>();
    l = l.enroll({ capability: tool("a", "x", 1), server: "a" }, AT);
    l = l.enroll({ capability: tool("b", "y"), server: "b" }, AT);
    l = l.enroll({ capability: tool("a", "z"), server: "a" }, AT);
    l = l.enroll({ capability: tool("a", "x", 2), server: "a" }, AT); // same name + schema: same key
    expect(names(l)).toEqual(["a__x", "b__y", "a__z"]);
    expect(l.liveCapabilities()[0]?.version).toBe(2);
    expect(l.snapshot.live.size).toBe(3);
    expect(l.log).toHaveLength(4);
    expect([...l.snapshot.byServer]).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
  });

  it("honours an explicit key, and a new server on a live key moves its count", () => {
    const k = asBridgeKey("bk_custom");
    let l = BridgeLedger.empty<Tool>().enroll({ capability: tool("a", "x"), server: "a", key: k }, AT);
    l = l.enroll({ capability: tool("b", "x"), server: "b", key: k }, AT);
    expect(l.snapshot.live.get(k)?.name).toBe("b__x");
    expect(l.snapshot.owners.get(k)).toBe("b");
    expect([...l.snapshot.byServer]).toEqual([["b", 1]]);
    expect(l.liveCapabilitiesForServer("a")).toEqual([]);
  });

  it("never touches the request or the capability", () => {
    const capability = Object.freeze(tool("a", "x"));
    const req = Object.freeze({ capability, server: "a" });
    const l = BridgeLedger.empty<Tool>().enroll(req, AT);
    expect(l.liveCapabilities()[0]).toBe(capability);
    expect(req).toEqual({ capability, server: "a" });
  });
});

describe("retire", () => {
  it("removes the key without reordering the survivors", () => {
    let l = BridgeLedger.empty<Tool>();
    for (const n of ["p", "q", "r", "s"]) l = l.enroll({ capability: tool("a", n), server: "a" }, AT);
    const q = bridgeContentKey("a", "q", { type: "object" });
    l = l.retire(q, "a", AT);
    expect(names(l)).toEqual(["a__p", "a__r", "a__s"]);
    expect(l.snapshot.live.has(q)).toBe(false);
    // Enrolled again after a retire, a key joins the end.
    l = l.enroll({ capability: tool("a", "q"), server: "a" }, AT);
    expect(names(l)).toEqual(["a__p", "a__r", "a__s", "a__q"]);
  });

  it("records an unknown key but changes nothing else", () => {
    const l = BridgeLedger.empty<Tool>().enroll({ capability: tool("a", "x"), server: "a" }, AT);
    const r = l.retire(asBridgeKey("bk_nobody"), "ghost", AT);
    expect(r.log).toHaveLength(2);
    expect(r.log[1]).toEqual({ op: "retire", key: "bk_nobody", server: "ghost", seq: 2, at: AT });
    expect(names(r)).toEqual(names(l));
    expect(r.snapshot.highWater).toBe(2);
    expect(r.nextSeq).toBe(3);
  });
});

describe("withdrawServer", () => {
  it("retires every key the server has live, in live order, with consecutive seqs and one at", () => {
    let l = BridgeLedger.empty<Tool>();
    l = l.enroll({ capability: tool("a", "1"), server: "a" }, AT);
    l = l.enroll({ capability: tool("b", "1"), server: "b" }, AT);
    l = l.enroll({ capability: tool("a", "2"), server: "a" }, AT);
    const w = l.withdrawServer("a", "2026-02-02T00:00:00.000Z");
    expect(w.log.slice(3)).toEqual([
      {
        op: "retire",
        key: bridgeContentKey("a", "1", { type: "object" }),
        server: "a",
        seq: 4,
        at: "2026-02-02T00:00:00.000Z",
      },
      {
        op: "retire",
        key: bridgeContentKey("a", "2", { type: "object" }),
        server: "a",
        seq: 5,
        at: "2026-02-02T00:00:00.000Z",
      },
    ]);
    expect(names(w)).toEqual(["b__1"]);
    expect([...w.snapshot.byServer]).toEqual([["b", 1]]);
  });

  it("is the same value when the server has nothing live", () => {
    const l = BridgeLedger.empty<Tool>().enroll({ capability: tool("a", "1"), server: "a" }, AT);
    expect(l.withdrawServer("zzz")).toBe(l);
  });
});

describe("queries", () => {
  it("lists per server, and byServer follows each server's first live key", () => {
    let l = BridgeLedger.empty<Tool>();
    l = l.enroll({ capability: tool("a", "1"), server: "a" }, AT);
    l = l.enroll({ capability: tool("b", "1"), server: "b" }, AT);
    l = l.enroll({ capability: tool("a", "2"), server: "a" }, AT);
    expect(l.liveCapabilitiesForServer("a").map((c) => c.name)).toEqual(["a__1", "a__2"]);
    expect(l.liveCapabilitiesForServer("nope")).toEqual([]);
    // Retiring a's first key puts b's key first in the live order, and so first in byServer.
    l = l.retire(bridgeContentKey("a", "1", { type: "object" }), "a", AT);
    expect([...l.snapshot.byServer]).toEqual([
      ["b", 1],
      ["a", 1],
    ]);
  });

  it("hands out read-only maps that behave like maps", () => {
    let l = BridgeLedger.empty<Tool>();
    l = l.enroll({ capability: tool("a", "1"), server: "a" }, AT);
    const live = l.snapshot.live;
    expect("set" in live).toBe(false);
    expect("delete" in live).toBe(false);
    expect(() => {
      (l.snapshot as { highWater: number }).highWater = 99;
    }).toThrow(TypeError);
    expect(l.snapshot.highWater).toBe(1);
    expect(Object.isFrozen(l.log)).toBe(true);
    expect(Object.isFrozen(l.log[0])).toBe(true);
    expect(Object.isFrozen(l.liveCapabilities())).toBe(true);
    const copy = new Map(live);
    expect(copy.size).toBe(1);
    const seen: string[] = [];
    live.forEach((cap, key, map) => {
      expect(map).toBe(live);
      seen.push(`${key}=${cap.name}`);
    });
    expect(seen).toEqual([`${bridgeContentKey("a", "1", { type: "object" })}=a__1`]);
    expect([...live.keys()]).toEqual([...copy.keys()]);
    expect([...live.values()]).toEqual([...copy.values()]);
    expect(JSON.parse(JSON.stringify(l.snapshot.byServer))).toEqual([["a", 1]]);
  });

  it("logAfter returns what a store holding up to a seq is missing", () => {
    let l = BridgeLedger.empty<Tool>();
    for (const n of ["1", "2", "3"]) l = l.enroll({ capability: tool("a", n), server: "a" }, AT);
    expect(l.logAfter(1).map((e) => e.seq)).toEqual([2, 3]);
    expect(l.logAfter(0)).toEqual(l.log);
    expect(l.logAfter(3)).toEqual([]);
  });
});

describe("immutability", () => {
  it("leaves every earlier value exactly as it was", () => {
    const v0 = BridgeLedger.empty<Tool>();
    const v1 = v0.enroll({ capability: tool("a", "x", 1), server: "a" }, AT);
    const v1Snapshot = v1.snapshot; // read before the later transitions
    const v2 = v1.enroll({ capability: tool("b", "y"), server: "b" }, AT);
    const v3 = v2.enroll({ capability: tool("a", "x", 2), server: "a" }, AT);
    const v4 = v3.withdrawServer("a", AT);
    const v5 = v4.retire(asBridgeKey("bk_unknown"), "z", AT);

    const kx = bridgeContentKey("a", "x", { type: "object" });
    expect(v0.log).toEqual([]);
    expect(v0.snapshot.live.size).toBe(0);
    expect(v1.log).toHaveLength(1);
    expect(v1.nextSeq).toBe(2);
    expect(names(v1)).toEqual(["a__x"]);
    expect(v1.snapshot.live.get(kx)?.version).toBe(1);
    expect(v1Snapshot.live.get(kx)?.version).toBe(1);
    expect([...v1Snapshot.byServer]).toEqual([["a", 1]]);
    expect(names(v2)).toEqual(["a__x", "b__y"]);
    expect(v3.snapshot.live.get(kx)?.version).toBe(2);
    expect(v2.snapshot.live.get(kx)?.version).toBe(1);
    expect(names(v4)).toEqual(["b__y"]);
    expect(v4.snapshot.live.get(kx)).toBeUndefined();
    expect(v3.snapshot.live.get(kx)?.version).toBe(2);
    expect(v5.log).toHaveLength(5);
    expect(v4.log).toHaveLength(4);
  });

  it("branches from an older value without disturbing the newer one", () => {
    const base = BridgeLedger.empty<Tool>().enroll({ capability: tool("a", "x"), server: "a" }, AT);
    const left = base.enroll({ capability: tool("l", "1"), server: "l" }, AT);
    const right = base.enroll({ capability: tool("r", "1"), server: "r" }, AT); // base is no longer the tip: forks
    const leftMore = left.enroll({ capability: tool("l", "2"), server: "l" }, AT);
    const rightMore = right.retire(bridgeContentKey("a", "x", { type: "object" }), "a", AT);
    expect(names(left)).toEqual(["a__x", "l__1"]);
    expect(names(right)).toEqual(["a__x", "r__1"]);
    expect(names(leftMore)).toEqual(["a__x", "l__1", "l__2"]);
    expect(names(rightMore)).toEqual(["r__1"]);
    expect(left.log.map((e) => e.seq)).toEqual([1, 2]);
    expect(right.log.map((e) => e.seq)).toEqual([1, 2]);
    expect(rightMore.log.map((e) => e.op)).toEqual(["enroll", "enroll", "retire"]);
  });
});

describe("fromLog", () => {
  const log = (): BridgeEntry<Tool>[] => {
    let l = BridgeLedger.empty<Tool>();
    l = l.enroll({ capability: tool("a", "1"), server: "a" }, AT);
    l = l.enroll({ capability: tool("b", "1"), server: "b" }, AT);
    l = l.enroll({ capability: tool("a", "2"), server: "a" }, AT);
    l = l.retire(bridgeContentKey("b", "1", { type: "object" }), "b", AT);
    l = l.enroll({ capability: tool("a", "1", 9), server: "a" }, AT);
    return [...l.log];
  };

  it("replays deterministically and resumes one past the high-water mark", () => {
    const entries = log();
    const shuffled = [entries[3], entries[0], entries[4], entries[2], entries[1]] as BridgeEntry<Tool>[];
    const before = [...shuffled];
    const a = BridgeLedger.fromLog(entries);
    const b = BridgeLedger.fromLog(shuffled);
    expect(shuffled).toEqual(before); // input untouched
    expect(b.log).toEqual(entries); // stored in seq order
    expect(names(a)).toEqual(["a__1", "a__2"]);
    expect(names(b)).toEqual(names(a));
    expect(a.liveCapabilities()[0]?.version).toBe(9);
    expect(b.nextSeq).toBe(6);
    expect(b.enroll({ capability: tool("c", "1"), server: "c" }, AT).log.at(-1)?.seq).toBe(6);
  });

  it("resumes past gaps in the numbering", () => {
    const entries = log().map((e, i) => ({ ...e, seq: (i + 1) * 10 }));
    const l = BridgeLedger.fromLog(entries);
    expect(l.nextSeq).toBe(51);
    expect(l.snapshot.highWater).toBe(50);
  });

  it("copies the entries it is given", () => {
    const entries = log().map((e) => ({ ...e })); // plain, mutable objects
    const l = BridgeLedger.fromLog(entries);
    (entries[0] as { server: string }).server = "mutated";
    expect(l.log[0]?.server).toBe("a");
  });
});

describe("reduceLedger", () => {
  it("folds to the same snapshot as the ledger, whatever the input order, and does not sort in place", () => {
    let l = BridgeLedger.empty<Tool>();
    for (let i = 0; i < 20; i++)
      l = l.enroll({ capability: tool(i % 2 ? "a" : "b", String(i % 7)), server: i % 2 ? "a" : "b" }, AT);
    l = l.withdrawServer("b", AT);
    const entries = [...l.log].reverse();
    const copy = [...entries];
    const snap = reduceLedger(entries);
    expect(entries).toEqual(copy);
    expect([...snap.live]).toEqual([...l.snapshot.live]);
    expect([...snap.owners]).toEqual([...l.snapshot.owners]);
    expect([...snap.byServer]).toEqual([...l.snapshot.byServer]);
    expect(snap.highWater).toBe(l.snapshot.highWater);
  });

  it("lets the later seq win on a repeated key", () => {
    const k = asBridgeKey("bk_k");
    const entries: BridgeEntry<Tool>[] = [
      { op: "enroll", key: k, server: "s", capability: tool("s", "t", 2), seq: 7, at: AT },
      { op: "enroll", key: k, server: "s", capability: tool("s", "t", 1), seq: 3, at: AT },
    ];
    expect(reduceLedger(entries).live.get(k)?.version).toBe(2);
    expect(reduceLedger(entries).highWater).toBe(7);
  });

  it("orders by seq however sparse or odd the numbering, ties keeping input order", () => {
    const k = asBridgeKey("bk_k");
    const at = (seq: number, version: number): BridgeEntry<Tool> => ({
      op: "enroll",
      key: k,
      server: "s",
      capability: tool("s", "t", version),
      seq,
      at: AT,
    });
    // Dense (counting sort): the tie at seq 2 keeps input order, so version 3 (later in the input) wins.
    expect(reduceLedger([at(3, 9), at(2, 1), at(1, 0), at(2, 3)]).live.get(k)?.version).toBe(9);
    expect(reduceLedger([at(2, 1), at(1, 0), at(2, 3)]).live.get(k)?.version).toBe(3);
    // Sparse and fractional (comparison sort): same rules.
    expect(reduceLedger([at(1e12, 5), at(7, 1), at(1e9, 4)]).live.get(k)?.version).toBe(5);
    expect(reduceLedger([at(2.5, 2), at(1.5, 1), at(2.5, 3)]).live.get(k)?.version).toBe(3);
    expect(BridgeLedger.fromLog([at(1e12, 5), at(7, 1)]).nextSeq).toBe(1e12 + 1);
  });

  it("is total: an empty log, an unknown op and retires of unknown keys fold without throwing", () => {
    expect(reduceLedger([]).live.size).toBe(0);
    const odd = [
      { op: "rename", key: asBridgeKey("bk_x"), server: "s", seq: 1, at: AT },
      { op: "retire", key: asBridgeKey("bk_y"), server: "s", seq: 2, at: AT },
    ] as unknown as BridgeEntry<Tool>[];
    const snap = reduceLedger(odd);
    expect(snap.live.size).toBe(0);
    expect(snap.highWater).toBe(2);
  });

  it("matches a plain Map fold on a long churning log (where dead entries get compacted away)", () => {
    const entries: BridgeEntry<Tool>[] = [];
    let x = 42;
    for (let seq = 1; seq <= 20_000; seq++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      const key = asBridgeKey(`bk_${x % 300}`);
      const srv = `s${x % 7}`;
      entries.push(
        x % 10 < 6
          ? { op: "enroll", key, server: srv, capability: tool(srv, `t${x % 300}`, seq), seq, at: AT }
          : { op: "retire", key, server: srv, seq, at: AT },
      );
    }
    const plain = new Map<string, Tool>();
    for (const e of entries) {
      if (e.op === "enroll") plain.set(e.key, e.capability);
      else plain.delete(e.key);
    }
    const snap = reduceLedger(entries);
    expect([...snap.live]).toEqual([...plain]);
    expect(snap.live.size).toBe(plain.size);
    for (const key of plain.keys()) expect(snap.live.get(asBridgeKey(key))).toBe(plain.get(key));
    expect(snap.live.has(asBridgeKey("bk_none"))).toBe(false);
    // And the ledger, which keeps every version, agrees at the end and halfway.
    const ledger = BridgeLedger.fromLog(entries);
    expect([...ledger.snapshot.live]).toEqual([...plain]);
    expect([...reduceLedger(entries.slice(0, 10_000)).live]).toEqual([
      ...BridgeLedger.fromLog(entries.slice(0, 10_000)).snapshot.live,
    ]);
  }, 60_000);
});
