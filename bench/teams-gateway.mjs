#!/usr/bin/env node
// What the gateway for teams costs, in one run: the same `indusr mcp serve
// --http` mounting server-everything over stdio, reached by v2 clients calling
// `everything__echo`, as
//
//   indusr             no gateway options (the baseline)
//   indusr teams       --auth-issuer (JWTs from examples/teams/issuer.mjs, checked
//                      with jose), --access (a grant short of everything, so
//                      callers get a filtered view), --audit-log, --metrics
//   supergateway       --stdio ... --outputTransport streamableHttp --stateful
//
// 1 client calling one at a time (p50 @1) and 64 clients at once (calls/s,
// the p50 of those calls, and the CPU time the gateway's own process, all its
// threads but not its stdio server, spent per call), in the 2025 era (all
// three) and 2026-07-28 (indusr and indusr teams). Targets (issue 24): teams
// costs <= 10 % of p50 and of calls/s at 64 clients against indusr (the p50
// of one client alone and the CPU per call are printed against the same
// bound), and stays >= 2.0x supergateway's calls/s.
//
// Built to resolve 10 % on a shared, loaded machine. Each comparison runs in
// pairs of short slices (500 ms of 64 clients calling), the two targets of a
// pair AT ONCE (each with its own 64 clients), so whatever the machine does
// meanwhile falls on both; the comparisons take turns pair by pair. Each pair
// gives one ratio; printed are the ratios' geometric mean, its 95 % interval
// and their interquartile range, and whether the interval lies all on one
// side of the bound ("unresolved" when not). A slice's figures scatter about
// +-30 % at load 10-20, independently slice to slice, so the interval
// narrows with the square root of the pairs: 60 pairs give about +-7 % on
// CPU per call at load ~20 (BENCH_PAIRS=n for a longer run). The sequential
// p50 @1 slices run one after the other (ABBA). The gateway's own CPU, not
// its process tree: server-everything's CPU per call is the same behind both
// indusr targets and only dilutes the ratio.
//
// The clients are raw-mcp-client.mjs (hand-written JSON-RPC on node:http, one
// keep-alive socket each), all in this thread: SDK clients cost about as much
// CPU per call as a gateway, so on 2 cores they took the gateways' CPU and
// pulled the supergateway ratio towards 1. The bench prints its own CPU per
// call beside the gateways' so a saturated load generator shows.
//
//   pnpm build && node bench/teams-gateway.mjs     (full, about 4 minutes)
//   BENCH_QUICK=1 node bench/teams-gateway.mjs     (reduced, for bench/ci.sh)
//   BENCH_PAIRS=120 ...     more pairs (a narrower interval)
//   BENCH_APART=1 ...       a pair's slices one after the other (ABBA), not at once
//   BENCH_DUMP=file.json    every slice's figures, for a closer look
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import readline from "node:readline";
import { URLSearchParams, fileURLToPath } from "node:url";
import { MODERN, connectManyRaw, connectRaw, resent } from "./raw-mcp-client.mjs";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const ISSUER = join(root, "examples", "teams", "issuer.mjs");
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const SUPERGATEWAY = join(dirname(require.resolve("supergateway/package.json")), "dist", "index.js");
const PLAN = QUICK
  ? { sequentialPairs: 6, sequential: 30, pairs: 10, warmupPairs: 3, clients: 64, sliceMs: 400 }
  : {
      sequentialPairs: 24,
      sequential: 40,
      pairs: Number(process.env.BENCH_PAIRS ?? 60),
      warmupPairs: 10,
      clients: 64,
      sliceMs: 500,
    };
const TARGETS = { cost: 0.1, supergateway: 2.0 };

const work = mkdtempSync(join(tmpdir(), "indus-teams-bench-"));
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});
const node = (args, options = {}) => {
  const child = spawn(process.execPath, args, { stdio: "ignore", ...options });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
};

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function lineMatching(stream, pattern, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} in: ${seen}`)), timeoutMs);
    stream.on("data", (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
}

async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} never came up`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const config = join(work, "mcp.json");
writeFileSync(
  config,
  JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
);
const policy = join(work, "access.json");
// A grant short of everything: callers are served a filtered view of the box.
writeFileSync(
  policy,
  JSON.stringify({ rules: [{ match: { clientId: "full-agent" }, allow: { servers: ["everything"] } }] }),
);

async function startIndusr(port, flags) {
  const child = node(
    [
      INDUSR,
      "mcp",
      "serve",
      "--http",
      "--port",
      String(port),
      "--boot-wait",
      "120000",
      "--no-builtins",
      "--mcp",
      config,
      ...flags,
    ],
    { cwd: work, stdio: ["ignore", "ignore", "pipe"] },
  );
  const href = await lineMatching(child.stderr, /at (http:\S+) /);
  child.stderr.resume();
  return { child, url: new URL(href), tool: "everything__echo", headers: {} };
}

const starters = {
  indusr: () => startIndusr(0, []),
  async teams() {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const issuer = node([ISSUER, "--resource", resource], { stdio: ["ignore", "pipe", "ignore"] });
    const { issuer: url } = JSON.parse(
      await new Promise((resolve) => readline.createInterface({ input: issuer.stdout }).once("line", resolve)),
    );
    const target = await startIndusr(port, [
      ...["--auth-issuer", url, "--auth-scope", "mcp:tools", "--access", policy],
      ...["--audit-log", join(work, "audit.log"), "--metrics"],
    ]);
    const answer = await fetch(`${url}/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("full-agent:full-agent-secret").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "client_credentials", resource, scope: "mcp:tools" }),
    });
    const { access_token: token } = await answer.json();
    return { ...target, headers: { authorization: `Bearer ${token}` } };
  },
  async supergateway() {
    const port = await freePort();
    const child = node([
      SUPERGATEWAY,
      ...["--stdio", `${process.execPath} ${EVERYTHING} stdio`, "--outputTransport", "streamableHttp", "--stateful"],
      ...["--port", String(port), "--logLevel", "none"],
    ]);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    await waitForHttp(url);
    return { child, url, tool: "echo", headers: {} };
  },
};

const PATHS = [
  { name: "indusr", target: "indusr", era: "2025" },
  { name: "indusr teams", target: "teams", era: "2025" },
  { name: "supergateway", target: "supergateway", era: "2025" },
  { name: `indusr ${MODERN}`, target: "indusr", era: MODERN },
  { name: `indusr teams ${MODERN}`, target: "teams", era: MODERN },
];
/** What is compared, slice against slice: [subject, baseline]. Each pair of slices yields one ratio. */
const PAIRS = [
  ["indusr teams", "indusr"],
  [`indusr teams ${MODERN}`, `indusr ${MODERN}`],
  ["indusr teams", "supergateway"],
];

const sorted = (values) => [...values].sort((a, b) => a - b);
const quantile = (values, q) => sorted(values)[Math.min(values.length - 1, Math.floor(q * values.length))];
const median = (values) => quantile(values, 0.5);
const sum = (values) => values.reduce((total, value) => total + value, 0);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const pad = (value, width) => String(value).padStart(width);
/**
 * CPU time (ns) the process `pid` itself has run, all its threads (main, V8's
 * GC and compiler helpers, libuv's pool), from each thread's schedstat: the
 * gateway alone, not its stdio server, whose CPU per call is the same behind
 * every indusr target and only dilutes the ratio.
 */
function selfCpuNs(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ns;
}
const began = performance.now();

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
console.log(
  `teams gateway bench (${QUICK ? "quick" : "full"}): echo on server-everything, node ${process.version}, load ${loadavg()}`,
);
const servers = {};
for (const [name, start] of Object.entries(starters)) servers[name] = await start();
const paths = Object.fromEntries(PATHS.map((path) => [path.name, { ...path, server: servers[path.target] }]));

/** `calls` sequential calls of one client; the p50 (ms). */
async function sequential(path, calls) {
  const samples = [];
  for (let n = 0; n < calls; n++) {
    const started = performance.now();
    await path.single.echo(path.server.tool, `s${n}`);
    samples.push(performance.now() - started);
  }
  return { p50: median(samples) };
}

/**
 * The path's clients all calling, each one call after another, for `ms`
 * (then each finishes the call it is in): the p50, calls/s, and CPU per
 * call of the gateway and of this bench.
 */
async function burst(path, ms) {
  const samples = [];
  const cpuBefore = selfCpuNs(path.server.child.pid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    path.clients.map(async (client, index) => {
      for (let n = 0; performance.now() < end; n++) {
        const began = performance.now();
        await client.echo(path.server.tool, `c${index}-${n}`);
        samples.push(performance.now() - began);
      }
    }),
  );
  const total = samples.length;
  const rate = (total / (performance.now() - started)) * 1000;
  const cpu = (selfCpuNs(path.server.child.pid) - cpuBefore) / 1e6 / total;
  const client = process.cpuUsage(clientBefore);
  return { p50: median(samples), rate, cpu, benchCpu: (client.user + client.system) / 1000 / total };
}

const TOGETHER = process.env.BENCH_APART !== "1";
/**
 * `pairs` pairs of slices per comparison after `warmup` unmeasured ones, the
 * comparisons round-robin; a pair's two slices `together` (at once) or one
 * after the other, the order flipping pair to pair (ABBA). Warm-up: a
 * gateway for teams started cold spent 3-5x its settled CPU per call over its
 * first ~5 s of 64 clients (measured at load 15).
 */
async function paired(run, pairs, warmup, comparisons, together = false) {
  const ratios = comparisons.map(() => []);
  for (let n = -warmup; n < pairs; n++) {
    for (const [index, [subject, baseline]] of comparisons.entries()) {
      if (index === 2 && n % SG_EVERY !== 0) continue;
      const order = n % 2 === 0 ? [subject, baseline] : [baseline, subject];
      const slices = {};
      if (together) {
        const [a, b] = await Promise.all(order.map((name) => run(paths[name])));
        slices[order[0]] = a;
        slices[order[1]] = b;
      } else for (const name of order) slices[name] = await run(paths[name]);
      if (n >= 0) ratios[index].push(slices);
    }
  }
  return ratios;
}

// The supergateway comparison (a bound of 2x, not 10 %) runs every SG_EVERY-th pair: it is the slow target.
const SG_EVERY = QUICK ? 2 : 3;
const singles = [...new Set(PAIRS.flat())];
for (const name of singles)
  paths[name].single = await connectRaw(paths[name].server.url, paths[name].era, paths[name].server.headers);
const seq = await paired((path) => sequential(path, PLAN.sequential), PLAN.sequentialPairs, 1, PAIRS);
for (const name of singles) await paths[name].single.close();
for (const name of singles) {
  const { url, tool, headers } = paths[name].server;
  paths[name].clients = await connectManyRaw(url, paths[name].era, PLAN.clients, headers);
  await Promise.all(paths[name].clients.map((client, index) => client.echo(tool, `w${index}`)));
}
const loadBefore = loadavg();
const many = await paired((path) => burst(path, PLAN.sliceMs), PLAN.pairs, PLAN.warmupPairs, PAIRS, TOGETHER);
const loadAfter = loadavg();
for (const name of singles) await Promise.all(paths[name].clients.map((client) => client.close()));

/** Student's t for a two-sided 95 % interval with `df` degrees of freedom (Cornish-Fisher: within 2 % from df 4, 0.3 % from df 7). */
function t95(df) {
  const z = 1.96;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}
/**
 * The per-pair ratios' geometric mean with its 95 % interval (a slice's
 * figures on a loaded machine scatter multiplicatively: logs, then t), and
 * their interquartile range. The geometric mean, not the median: for the
 * same pairs its interval is about a fifth narrower.
 */
function summary(slices, subject, baseline, key) {
  const logs = slices.map((pair) => Math.log(pair[subject][key] / pair[baseline][key]));
  const n = logs.length;
  const mean = sum(logs) / n;
  const sd = Math.sqrt(sum(logs.map((value) => (value - mean) ** 2)) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  const ratios = logs.map(Math.exp);
  return {
    mean: Math.exp(mean),
    low: Math.exp(mean - half),
    high: Math.exp(mean + half),
    q1: quantile(ratios, 0.25),
    q3: quantile(ratios, 0.75),
  };
}
const show = ({ mean, low, high, q1, q3 }) =>
  `x${mean.toFixed(3)}  95% ${low.toFixed(2)}-${high.toFixed(2)}  IQR ${q1.toFixed(2)}-${q3.toFixed(2)}`;
/** Whether the ratio meets its bound, and whether its interval lies all on one side of the bound (resolved). */
function verdict({ mean, low, high }, bound, atMost) {
  const met = atMost ? mean <= bound : mean >= bound;
  const resolved = low > bound || high < bound;
  return `${met ? "met" : "NOT met"}${resolved ? "" : " (unresolved: the interval spans the bound)"}`;
}

console.log(
  `\n${"path".padEnd(24)} ${pad("p50 ms @1", 9)} ${pad(`p50 ms @${PLAN.clients}`, 10)} ${pad(`calls/s @${PLAN.clients}`, 14)} ${pad("gateway CPU ms/call", 20)} ${pad("bench CPU ms/call", 18)}`,
);
const column = (groups, name, key) =>
  groups.flatMap((group) => group.map((pair) => pair[name]?.[key])).filter((v) => v !== undefined);
for (const name of Object.keys(paths)) {
  const cpus = column(many, name, "cpu");
  console.log(
    `${name.padEnd(24)} ${pad(median(column(seq, name, "p50")).toFixed(2), 9)} ${pad(median(column(many, name, "p50")).toFixed(2), 10)} ${pad(median(column(many, name, "rate")).toFixed(0), 14)} ${pad(median(cpus).toFixed(3), 20)} ${pad(median(column(many, name, "benchCpu")).toFixed(3), 18)}`,
  );
}
const slice = `${PLAN.clients} clients x ${PLAN.sliceMs} ms${TOGETHER ? ", both at once" : ""}`;
console.log(
  `\nratios: geometric mean of per-pair ratios, its 95 % interval, IQR (${PLAN.pairs} pairs of ${slice} slices, ${PLAN.sequentialPairs} pairs of ${PLAN.sequential} sequential calls)`,
);
const row = (what, label, ratio, bound, atMost) =>
  console.log(
    `  ${what.padEnd(14)} ${label.padEnd(25)} ${show(ratio)}  target ${atMost ? "<=" : ">="} ${bound}  ${verdict(ratio, bound, atMost)}`,
  );
for (const [index, era] of [
  [0, ""],
  [1, ` ${MODERN}`],
]) {
  const [subject, baseline] = PAIRS[index];
  const label = `teams / indusr${era}`;
  const bound = 1 + TARGETS.cost;
  row("p50 @1", label, summary(seq[index], subject, baseline, "p50"), bound, true);
  row(`p50 @${PLAN.clients}`, label, summary(many[index], subject, baseline, "p50"), bound, true);
  row(`calls/s @${PLAN.clients}`, label, summary(many[index], subject, baseline, "rate"), 1 - TARGETS.cost, false);
  row(`CPU/call @${PLAN.clients}`, label, summary(many[index], subject, baseline, "cpu"), bound, true);
}
const sg = summary(many[2], "indusr teams", "supergateway", "rate");
row(`calls/s @${PLAN.clients}`, "teams / supergateway", sg, TARGETS.supergateway, false);
const sgCpu = summary(many[2], "supergateway", "indusr teams", "cpu");
console.log(`  ${`CPU/call @${PLAN.clients}`.padEnd(14)} ${"supergateway / teams".padEnd(25)} ${show(sgCpu)}`);
if (process.env.BENCH_DUMP) writeFileSync(process.env.BENCH_DUMP, JSON.stringify({ PLAN, PAIRS, seq, many }));
const audit = readFileSync(join(work, "audit.log"), "utf8").trim().split("\n").length;
console.log(
  `\naudit lines written: ${audit}; calls sent again after a keep-alive race: ${resent.count}; load ${loadBefore} -> ${loadAfter}; done in ${((performance.now() - began) / 1000).toFixed(1)} s`,
);
process.exit(0);
