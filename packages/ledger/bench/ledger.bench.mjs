// Bench for @indus/ledger. Run after a build: `pnpm --filter @indus/ledger bench`
// (or `node bench/ledger.bench.mjs` inside the package). No forced GCs between
// runs: a forced full GC shrinks V8's young generation and then distorts
// whatever retains memory (the ledger keeps its history) far more than any
// real program sees.
// BENCH_QUICK=1 shrinks every N so the whole run stays well under a minute.
//
// What it shows: the CPU cost per event at growing N (flat = linear total cost),
// next to a baseline measured in the same run: a plain mutable Map (+ array
// log) doing the same work with no immutability. Variants are interleaved
// rep by rep and the ratio is the median of per-rep ratios, so a noisy
// machine moves both sides together.
import os from "node:os";
import { BridgeLedger, asBridgeKey, reduceLedger } from "../dist/index.js";

const QUICK = process.env.BENCH_QUICK === "1";
const REPS = QUICK ? 3 : 5;
const AT = "2026-01-01T00:00:00.000Z";

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (x, w = 9) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)).padStart(w);
const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n)).padStart(6);

/**
 * CPU time of this process (all its threads, so GC helpers count) in ns.
 * Steadier than wall time on a shared machine, where other jobs take turns
 * on the same cores.
 */
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

/**
 * Runs every variant once per rep, in turn, and returns per variant the
 * median ns per event and the median of its per-rep ratio to `baseline`.
 * A small N is run several times inside one timing (about 20,000 events),
 * so timer and GC jitter do not swamp it.
 */
function race(n, variants, reps = REPS) {
  const inner = Math.max(1, Math.round(20_000 / n));
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < reps; r++) {
    for (const [name, run] of Object.entries(variants)) {
      const t0 = cpuNs();
      for (let i = 0; i < inner; i++) globalThis.__sink = run();
      times[name].push((cpuNs() - t0) / (n * inner));
    }
  }
  const out = {};
  for (const name of Object.keys(variants)) {
    out[name] = {
      ns: median(times[name]),
      ratio: times.baseline ? median(times[name].map((t, r) => t / times.baseline[r])) : undefined,
    };
  }
  return out;
}

function tools(n) {
  const caps = new Array(n);
  const keys = new Array(n);
  for (let i = 0; i < n; i++) {
    caps[i] = {
      name: `srv${i % 16}__tool${i}`,
      description: `tool ${i}`,
      parameters: { type: "object", properties: { q: { type: "string" } } },
    };
    keys[i] = asBridgeKey(`bk_${i.toString(16).padStart(32, "0")}`);
  }
  return { caps, keys };
}

/** 70% enroll over a key space of n/4 (so many upserts), 30% retire; seqs 1..n. */
function workload(n) {
  const space = Math.max(1, n >> 2);
  const keys = Array.from({ length: space }, (_, i) => asBridgeKey(`bk_${i}`));
  const caps = Array.from({ length: space }, (_, i) => ({
    name: `srv${i % 16}__tool${i}`,
    parameters: { type: "object" },
  }));
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

function growth(rows, field) {
  const first = rows[0];
  const last = rows.at(-1);
  return (last[field].ns / first[field].ns).toFixed(2);
}

console.log(
  `@indus/ledger bench${QUICK ? " (BENCH_QUICK)" : ""}: node ${process.version}, ${os.cpus().length} cpus, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join("/")}, CPU time, median of ${REPS} interleaved reps`,
);

// 1. Enrolling N tools one call at a time -------------------------------------------------
const enrollVariants = (n, caps, keys) => ({
  ledger() {
    let l = BridgeLedger.empty();
    for (let i = 0; i < n; i++) l = l.enroll({ capability: caps[i], server: `srv${i % 16}`, key: keys[i] }, AT);
    return l;
  },
  // The same, reading the new value after every step: get and size are O(1), nothing is copied.
  withReads() {
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
  contentKey() {
    let l = BridgeLedger.empty();
    for (let i = 0; i < n; i++) l = l.enroll({ capability: caps[i], server: `srv${i % 16}` }, AT);
    return l;
  },
  // Baseline: one mutable Map and an array log, no immutability.
  baseline() {
    const live = new Map();
    const log = [];
    for (let i = 0; i < n; i++) {
      log.push({ op: "enroll", key: keys[i], server: `srv${i % 16}`, capability: caps[i], seq: i + 1, at: AT });
      live.set(keys[i], caps[i]);
    }
    return live;
  },
});

/** What the design avoids: an immutable value that copies its log and map on every call. */
function naiveCopyPerCall(n, caps, keys) {
  let v = { log: [], live: new Map() };
  for (let i = 0; i < n; i++) {
    const live = new Map(v.live);
    live.set(keys[i], caps[i]);
    v = { log: [...v.log, { op: "enroll", key: keys[i], capability: caps[i], seq: i + 1, at: AT }], live };
  }
  return v;
}

{
  const Ns = QUICK ? [1_000, 10_000, 30_000] : [1_000, 10_000, 100_000];
  const warm = tools(2_000);
  race(2_000, enrollVariants(2_000, warm.caps, warm.keys), 10); // warm-up: let the JIT settle

  console.log("\n1. enroll N tools one call at a time: ns per enroll (ratio to baseline)");
  console.log("     N           ledger        +get/size      content-key   baseline");
  const rows = [];
  for (const n of Ns) {
    const { caps, keys } = tools(n);
    const r = race(n, enrollVariants(n, caps, keys));
    rows.push(r);
    const cell = (v) => `${fmt(v.ns)} (${fmt(v.ratio, 4)}x)`;
    console.log(`${label(n)} ${cell(r.ledger)} ${cell(r.withReads)} ${cell(r.contentKey)} ${fmt(r.baseline.ns, 10)}`);
  }
  console.log(
    `   per-event cost at ${label(Ns.at(-1)).trim()} / at ${label(Ns[0]).trim()} (1.0 = linear total): ledger ${growth(rows, "ledger")}, +get/size ${growth(rows, "withReads")}, content-key ${growth(rows, "contentKey")}, baseline ${growth(rows, "baseline")}`,
  );

  // The direct test of "no step gets dearer as the ledger grows": one run of the largest N,
  // timed in tenths. Copying or refolding per call would make each tenth dearer than the last.
  {
    const n = Ns.at(-1);
    const tenth = n / 10;
    const { caps, keys } = tools(n);
    const ledgerCost = Array.from({ length: 10 }, () => []);
    const baseCost = Array.from({ length: 10 }, () => []);
    for (let r = 0; r < REPS; r++) {
      let l = BridgeLedger.empty();
      const live = new Map();
      const log = [];
      for (let c = 0; c < 10; c++) {
        let t0 = cpuNs();
        for (let i = c * tenth; i < (c + 1) * tenth; i++)
          l = l.enroll({ capability: caps[i], server: `srv${i % 16}`, key: keys[i] }, AT);
        ledgerCost[c].push((cpuNs() - t0) / tenth);
        t0 = cpuNs();
        for (let i = c * tenth; i < (c + 1) * tenth; i++) {
          log.push({ op: "enroll", key: keys[i], server: `srv${i % 16}`, capability: caps[i], seq: i + 1, at: AT });
          live.set(keys[i], caps[i]);
        }
        baseCost[c].push((cpuNs() - t0) / tenth);
      }
      if (l.snapshot.live.size !== n || live.size !== n) throw new Error("marginal run lost entries");
    }
    const ledgerRow = ledgerCost.map(median);
    const baseRow = baseCost.map(median);
    const half = (row, from) => row.slice(from, from + 5).reduce((a, b) => a + b, 0) / 5;
    console.log(
      `   one ${label(n).trim()} run in tenths, ns per enroll (median of ${REPS}; single tenths spike when a major GC lands in them):`,
    );
    console.log(`     ledger   ${ledgerRow.map((x) => fmt(x, 6)).join("")}`);
    console.log(`     baseline ${baseRow.map((x) => fmt(x, 6)).join("")}`);
    console.log(
      `     second half / first half: ledger ${(half(ledgerRow, 5) / half(ledgerRow, 0)).toFixed(2)}, baseline ${(half(baseRow, 5) / half(baseRow, 0)).toFixed(2)} (1.0 = flat; copy-per-call would be ~3)`,
    );
  }

  const naiveNs = [500, 4_000];
  const naive = naiveNs.map((n) => {
    const { caps, keys } = tools(n);
    return race(n, { naive: () => naiveCopyPerCall(n, caps, keys) }, 1).naive.ns;
  });
  console.log(
    `   for contrast, copying log + map per call: ${fmt(naive[0]).trim()} ns/enroll at 500, ${fmt(naive[1]).trim()} at 4k (x${(naive[1] / naive[0]).toFixed(1)}: quadratic total)`,
  );
}

// 2. reduceLedger over N entries -------------------------------------------------------------
{
  const Ns = QUICK ? [1_000, 10_000, 100_000, 200_000] : [1_000, 10_000, 100_000, 1_000_000];
  const warm = workload(5_000);
  for (let r = 0; r < 40; r++) reduceLedger(warm); // warm-up

  console.log("\n2. reduceLedger(entries): ns per entry (70% enroll / 30% retire over n/4 keys, in seq order)");
  console.log("     N           reduce   baseline     live");
  const rows = [];
  for (const n of Ns) {
    const entries = workload(n);
    let live = 0;
    const r = race(n, {
      reduce() {
        const s = reduceLedger(entries);
        live = s.live.size;
        return s;
      },
      // Baseline: fold into one mutable Map, no copy, no sort, no history.
      baseline() {
        const m = new Map();
        for (const e of entries) {
          if (e.op === "enroll") m.set(e.key, e.capability);
          else m.delete(e.key);
        }
        return m;
      },
    });
    rows.push(r);
    console.log(
      `${label(n)} ${fmt(r.reduce.ns)} (${fmt(r.reduce.ratio, 4)}x) ${fmt(r.baseline.ns, 10)} ${String(live).padStart(8)}`,
    );
  }
  console.log(
    `   per-entry cost at ${label(Ns.at(-1)).trim()} / at ${label(Ns[0]).trim()}: reduce ${growth(rows, "reduce")}, baseline ${growth(rows, "baseline")}`,
  );
  const n = Ns.at(-1);
  const shuffled = workload(n);
  let x = 7;
  for (let i = shuffled.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const j = x % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const unsorted = race(n, { reduce: () => reduceLedger(shuffled) }, 1).reduce.ns;
  console.log(
    `   the same ${label(n).trim()} entries shuffled (the fold sorts a copy first): ${fmt(unsorted).trim()} ns/entry`,
  );
}

// 3. Replay from JSON Lines ------------------------------------------------------------------
{
  const Ns = QUICK ? [1_000, 10_000, 30_000] : [1_000, 10_000, 100_000];
  console.log(
    "\n3. BridgeLedger.fromJsonLines(text, resolve): ns per line (split, JSON.parse, validate, resolve, fold)",
  );
  console.log("     N           replay  serialize  baseline      MB");
  const rows = [];
  for (const n of Ns) {
    let l = BridgeLedger.empty();
    for (const e of workload(n))
      l =
        e.op === "enroll"
          ? l.enroll({ capability: e.capability, server: e.server, key: e.key }, AT)
          : l.retire(e.key, e.server, AT);
    const text = l.toJsonLines();
    const r = race(n, {
      replay() {
        const loaded = BridgeLedger.fromJsonLines(text, (d) => d);
        if (loaded.error || loaded.ledger.logLength !== n) throw new Error("replay failed");
        return loaded;
      },
      serialize: () => l.toJsonLines(),
      // Baseline (the floor): split and JSON.parse every line, nothing else.
      baseline: () =>
        text
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
    });
    rows.push(r);
    console.log(
      `${label(n)} ${fmt(r.replay.ns)} (${fmt(r.replay.ratio, 4)}x) ${fmt(r.serialize.ns, 10)} ${fmt(r.baseline.ns, 9)} ${fmt(text.length / 1e6, 7)}`,
    );
  }
  console.log(
    `   per-line cost at ${label(Ns.at(-1)).trim()} / at ${label(Ns[0]).trim()}: replay ${growth(rows, "replay")}, baseline ${growth(rows, "baseline")}`,
  );
}
