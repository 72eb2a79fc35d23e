// Bench for @indus/ledger. Run after a build: `pnpm --filter @indus/ledger bench`
// (or `node --expose-gc bench/ledger.bench.mjs` in the package). BENCH_QUICK=1
// shrinks every N so the whole run stays well under a minute.
//
// What it shows: the cost per event at growing N (flat means linear total
// cost), each next to a baseline measured in the same run: a plain mutable
// Map (+ array log) doing the same work with no immutability at all.
import { BridgeLedger, asBridgeKey, reduceLedger } from "../dist/index.js";

const QUICK = process.env.BENCH_QUICK === "1";
const REPS = QUICK ? 3 : 5;
const AT = "2026-01-01T00:00:00.000Z";

const gc = globalThis.gc ?? (() => {});
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
/** Median wall time of `reps` runs of `fn(input)`, in ms; `setup` builds a fresh input outside the timing. */
function measure(fn, setup = () => undefined, reps = REPS) {
  const times = [];
  let sink;
  for (let r = 0; r < reps; r++) {
    const input = setup();
    gc();
    const t0 = process.hrtime.bigint();
    sink = fn(input);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  globalThis.__sink = sink;
  return median(times);
}
const ns = (ms, n) => (ms * 1e6) / n;
const fmt = (x, w = 9) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)).padStart(w);
const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n)).padStart(6);

function tools(n) {
  const caps = new Array(n);
  const keys = new Array(n);
  for (let i = 0; i < n; i++) {
    const server = `srv${i % 16}`;
    caps[i] = { name: `${server}__tool${i}`, description: `tool ${i}`, parameters: { type: "object", properties: { q: { type: "string" } } } };
    keys[i] = asBridgeKey(`bk_${i.toString(16).padStart(32, "0")}`);
  }
  return { caps, keys };
}

console.log(`@indus/ledger bench${QUICK ? " (BENCH_QUICK)" : ""}, node ${process.version}, median of ${REPS}`);

// 1. Enrolling N tools one call at a time -------------------------------------------------
const enrollVariants = {
  ledger(n, caps, keys) {
    let l = BridgeLedger.empty();
    for (let i = 0; i < n; i++) l = l.enroll({ capability: caps[i], server: `srv${i % 16}`, key: keys[i] }, AT);
    return l;
  },
  // The same, reading the new value after every step: lookups and size are O(1), no copy.
  withReads(n, caps, keys) {
    let l = BridgeLedger.empty();
    let seen = 0;
    for (let i = 0; i < n; i++) {
      l = l.enroll({ capability: caps[i], server: `srv${i % 16}`, key: keys[i] }, AT);
      if (l.snapshot.live.get(keys[i]) === caps[i] && l.snapshot.live.size === i + 1) seen++;
    }
    if (seen !== n) throw new Error("read back failed");
    return l;
  },
  // Default keys: sha256 over the canonical {name, schema} on every call.
  contentKey(n, caps) {
    let l = BridgeLedger.empty();
    for (let i = 0; i < n; i++) l = l.enroll({ capability: caps[i], server: `srv${i % 16}` }, AT);
    return l;
  },
  // Baseline: mutable, no history kept beyond the array log.
  baseline(n, caps, keys) {
    const live = new Map();
    const log = [];
    for (let i = 0; i < n; i++) {
      log.push({ op: "enroll", key: keys[i], server: `srv${i % 16}`, capability: caps[i], seq: i + 1, at: AT });
      live.set(keys[i], caps[i]);
    }
    return live;
  },
  // What the design avoids: an immutable value that copies its log and map on every call.
  naive(n, caps, keys) {
    let v = { log: [], live: new Map() };
    for (let i = 0; i < n; i++) {
      const live = new Map(v.live);
      live.set(keys[i], caps[i]);
      v = { log: [...v.log, { op: "enroll", key: keys[i], capability: caps[i], seq: i + 1, at: AT }], live };
    }
    return v;
  },
};
{
  const Ns = QUICK ? [1_000, 10_000, 30_000] : [1_000, 10_000, 100_000];
  const NAIVE_MAX = 10_000;
  const warm = tools(2_000);
  for (const run of Object.values(enrollVariants)) for (let r = 0; r < 3; r++) run(2_000, warm.caps, warm.keys);

  console.log("\n1. enroll N tools one call at a time: ns per enroll");
  console.log("     N    ledger  +get/size  content-key   baseline  ledger/base  naive-copy");
  const rows = [];
  for (const n of Ns) {
    const { caps, keys } = tools(n);
    const time = (name, reps) => ns(measure(() => enrollVariants[name](n, caps, keys), undefined, reps), n);
    const row = {
      n,
      ledger: time("ledger"),
      withReads: time("withReads"),
      contentKey: time("contentKey"),
      baseline: time("baseline"),
      naive: n <= NAIVE_MAX ? time("naive", 1) : undefined,
    };
    rows.push(row);
    console.log(
      `${label(n)} ${fmt(row.ledger)} ${fmt(row.withReads, 10)} ${fmt(row.contentKey, 12)} ${fmt(row.baseline, 10)} ${fmt(row.ledger / row.baseline, 11)}x ${row.naive === undefined ? "          -" : fmt(row.naive, 11)}`,
    );
  }
  const first = rows[0];
  const last = rows.at(-1);
  const g = (k) => (last[k] / first[k]).toFixed(2);
  console.log(`   per-event cost ${label(last.n).trim()} / ${label(first.n).trim()} (1.0 = linear total): ledger ${g("ledger")}, +get/size ${g("withReads")}, content-key ${g("contentKey")}, baseline ${g("baseline")}`);
  const naiveRows = rows.filter((r) => r.naive !== undefined);
  if (naiveRows.length > 1) {
    const a = naiveRows[0];
    const b = naiveRows.at(-1);
    console.log(`   naive copy-per-call, for contrast: per-event cost ${label(b.n).trim()} / ${label(a.n).trim()} = ${(b.naive / a.naive).toFixed(1)} (quadratic total)`);
  }
}

// 2. reduceLedger over N entries -------------------------------------------------------------
function workload(n) {
  // 70% enroll over a key space of n/4 (so many upserts), 30% retire.
  const space = Math.max(1, n >> 2);
  const keys = Array.from({ length: space }, (_, i) => asBridgeKey(`bk_${i}`));
  const caps = Array.from({ length: space }, (_, i) => ({ name: `srv${i % 16}__tool${i}`, parameters: { type: "object" } }));
  const entries = new Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const k = x % space;
    entries[i] =
      x % 10 < 7
        ? { op: "enroll", key: keys[k], server: `srv${k % 16}`, capability: caps[k], seq: i + 1, at: AT }
        : { op: "retire", key: keys[k], server: `srv${k % 16}`, seq: i + 1, at: AT };
  }
  return entries;
}
{
  const Ns = QUICK ? [1_000, 10_000, 100_000, 200_000] : [1_000, 10_000, 100_000, 1_000_000];
  const warm = workload(5_000);
  for (let r = 0; r < 5; r++) reduceLedger(warm);

  console.log("\n2. reduceLedger(entries): ns per entry (70% enroll / 30% retire, in seq order)");
  console.log("     N    reduce   baseline  reduce/base    live");
  for (const n of Ns) {
    const entries = workload(n);
    let live = 0;
    const reduce = measure(() => {
      const s = reduceLedger(entries);
      live = s.live.size;
      return s;
    });
    const baseline = measure(() => {
      const m = new Map();
      for (const e of entries) {
        if (e.op === "enroll") m.set(e.key, e.capability);
        else m.delete(e.key);
      }
      return m;
    });
    console.log(`${label(n)} ${fmt(ns(reduce, n))} ${fmt(ns(baseline, n), 10)} ${fmt(reduce / baseline, 11)}x ${String(live).padStart(7)}`);
  }
  const n = Ns.at(-1);
  const shuffled = workload(n);
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = (i * 2654435761) % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const unsorted = measure(() => reduceLedger(shuffled), undefined, QUICK ? 1 : 3);
  console.log(`   shuffled input at ${label(n).trim()} (copy + sort first): ${fmt(ns(unsorted, n)).trim()} ns/entry`);
}

// 3. Replay from JSON Lines ------------------------------------------------------------------
{
  const Ns = QUICK ? [1_000, 10_000, 30_000] : [1_000, 10_000, 100_000];
  console.log("\n3. BridgeLedger.fromJsonLines(text, resolve): ns per line (parse, validate, resolve, fold)");
  console.log("     N    replay  serialize  JSON.parse-only  replay/parse     MB");
  for (const n of Ns) {
    let l = BridgeLedger.empty();
    for (const e of workload(n)) l = e.op === "enroll" ? l.enroll({ capability: e.capability, server: e.server, key: e.key }, AT) : l.retire(e.key, e.server, AT);
    const text = l.toJsonLines();
    const serialize = measure(() => l.toJsonLines());
    const replay = measure(() => {
      const loaded = BridgeLedger.fromJsonLines(text, (d) => d);
      if (loaded.error || loaded.ledger.logLength !== n) throw new Error("replay failed");
      return loaded;
    });
    // The floor: split and JSON.parse every line, nothing else.
    const parseOnly = measure(() => text.split("\n").filter(Boolean).map((line) => JSON.parse(line)));
    console.log(`${label(n)} ${fmt(ns(replay, n))} ${fmt(ns(serialize, n), 10)} ${fmt(ns(parseOnly, n), 16)} ${fmt(replay / parseOnly, 12)}x ${fmt(text.length / 1e6, 6)}`);
  }
}
