#!/usr/bin/env node
// The HTTP gateway against its peers, in one run: the same upstream
// (server-everything's `echo`) reached over Streamable HTTP as
//
//   everything   the server's own Streamable HTTP mode (the baseline for latency)
//   indusr       `indusr mcp serve --http` mounting it over stdio
//   supergateway `supergateway --stdio ... --outputTransport streamableHttp
//                --stateful` mounting it over stdio (the baseline for throughput)
//
// from raw-mcp-client.mjs clients (JSON-RPC written on node:http, one
// keep-alive socket each, all in this thread; SDK clients cost about as much
// CPU per call as a gateway and pulled every ratio towards 1): 1 client
// calling one at a time (p50/p95) and 64 clients calling at once (calls/s),
// in the 2025 era on
// all three (server-everything and supergateway speak only that one) and in
// the 2026-07-28 era on indusr. CPU per call is read from /proc for each
// target's process tree (the gateway and the server processes it spawned) and
// for the gateway process alone. Targets take turns, round after round, so
// load on a shared machine hits them alike; ratios are medians of per-round
// ratios. Targets: indusr calls/s at 64 clients >= 1.5x
// supergateway's, indusr p50 at 1 client <= server-everything's own.
//
// server-everything rather than a leaner echo server: it is the server
// users mount most, and "its own Streamable HTTP mode" is
// the baseline; its HTTP mode logs every request and keeps an event store,
// which is part of what that baseline costs.
//
//   pnpm build && node bench/http-gateway.mjs     (full, a few minutes)
//   BENCH_QUICK=1 node bench/http-gateway.mjs     (reduced; bench/ci.sh)
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { MODERN, connectManyRaw, connectRaw, resent } from "./raw-mcp-client.mjs";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const SUPERGATEWAY = join(dirname(require.resolve("supergateway/package.json")), "dist", "index.js");

const PLAN = QUICK
  ? { rounds: 3, sequential: 60, clients: 64, perClient: 4, warmup: 10 }
  : { rounds: 9, sequential: 200, clients: 64, perClient: 16, warmup: 40 };
const TARGETS = { throughput: 1.5, latency: 1.0 };
const TICKS_PER_SECOND = 100;
/** BENCH_PROFILE=<dir>: the indusr gateway writes a V8 CPU profile there when the bench ends. */
const PROFILE = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE] : [];

const work = mkdtempSync(join(tmpdir(), "indus-http-gateway-bench-"));
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** CPU ticks of the process tree under `pid` (reaped children included), or of `pid` alone. */
function cpuTicks(pid, { tree }) {
  const stats = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      const own = Number(fields[11]) + Number(fields[12]);
      const reaped = Number(fields[13]) + Number(fields[14]);
      stats.set(Number(entry), { ppid: Number(fields[1]), own, reaped });
    } catch {
      // the process ended meanwhile
    }
  }
  if (!tree) return stats.get(pid)?.own ?? Number.NaN;
  const inTree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [other, { ppid }] of stats) {
      if (!inTree.has(other) && inTree.has(ppid)) {
        inTree.add(other);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const member of inTree) ticks += (stats.get(member)?.own ?? 0) + (stats.get(member)?.reaped ?? 0);
  return ticks;
}

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
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

/** Resolves with the first stderr line matching `pattern` (the served URL). */
function lineMatching(stream, pattern, timeoutMs = 60_000) {
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

const node = (args, options = {}) => track(spawn(process.execPath, args, { stdio: "ignore", ...options }));

/** The bench calls the mounted server at once: the gateway waits for it however loaded the machine is. */
const WAIT = ["--boot-wait", "120000"];

/** Each starter spawns one target and resolves with its URL and process. */
const starters = {
  async everything() {
    const port = await freePort();
    const child = node([EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) } });
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    await waitForHttp(url);
    return { child, url, tool: "echo" };
  },
  async indusr() {
    const config = join(work, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
    );
    const child = node(
      [
        ...PROFILE,
        INDUSR,
        "mcp",
        "serve",
        "--http",
        "--port",
        "0",
        ...WAIT,
        "--mcp",
        config,
        "--log-dir",
        join(work, "logs"),
      ],
      { cwd: work, stdio: ["ignore", "ignore", "pipe"] },
    );
    const href = await lineMatching(child.stderr, /at (http:\S+) /);
    child.stderr.resume();
    return { child, url: new URL(href), tool: "everything__echo" };
  },
  async supergateway() {
    const port = await freePort();
    const command = `${process.execPath} ${EVERYTHING} stdio`;
    const child = node([
      SUPERGATEWAY,
      ...["--stdio", command, "--outputTransport", "streamableHttp", "--stateful"],
      ...["--port", String(port), "--logLevel", "none"],
    ]);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    await waitForHttp(url);
    return { child, url, tool: "echo" };
  },
};

/** The paths measured: a target reached in one era. */
const PATHS = [
  { name: "everything (own HTTP)", target: "everything", era: "2025" },
  { name: "indusr --http", target: "indusr", era: "2025" },
  { name: "supergateway", target: "supergateway", era: "2025" },
  { name: `indusr --http ${MODERN}`, target: "indusr", era: MODERN },
];

/** Runs `work`, returning wall ms and the CPU ticks the target (tree and gateway alone) spent meanwhile. */
async function metered(target, work) {
  const pid = target.child.pid;
  const before = { tree: cpuTicks(pid, { tree: true }), own: cpuTicks(pid, { tree: false }) };
  const client = process.cpuUsage();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(client);
  return {
    ms,
    clientMicros: user + system,
    treeTicks: cpuTicks(pid, { tree: true }) - before.tree,
    ownTicks: cpuTicks(pid, { tree: false }) - before.own,
  };
}

async function sequentialRound(path, record) {
  const samples = [];
  const spent = await metered(path.server, async () => {
    for (let n = 0; n < PLAN.sequential; n++) {
      const started = performance.now();
      await path.single.echo(path.server.tool, `s${n}`);
      samples.push(performance.now() - started);
    }
  });
  record.latencies.push(...samples);
  record.cpu.push(cpuPerCall(spent, samples.length));
}

async function concurrentRound(path, record) {
  const before = resent.count;
  const spent = await metered(path.server, () =>
    Promise.all(
      path.clients.map(async (client, index) => {
        for (let n = 0; n < PLAN.perClient; n++) await client.echo(path.server.tool, `c${index}-${n}`);
      }),
    ),
  );
  path.resent += resent.count - before;
  const calls = PLAN.clients * PLAN.perClient;
  record.rates.push((calls / spent.ms) * 1000);
  record.cpu.push(cpuPerCall(spent, calls));
}

function cpuPerCall(spent, calls) {
  const micros = (ticks) => ((ticks / TICKS_PER_SECOND) * 1e6) / calls;
  return { tree: micros(spent.treeTicks), own: micros(spent.ownTicks), client: spent.clientMicros / calls };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const median = (values) => quantile(values, 0.5);
const sum = (values) => values.reduce((total, value) => total + value, 0);
/** CPU per call over every round of a path (total ticks over total calls, via the per-round means). */
const meanCpu = (cpu, key) => sum(cpu.map((entry) => entry[key])) / cpu.length;

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const pad = (value, width) => String(value).padStart(width);
const began = performance.now();

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
console.log(
  `HTTP gateway bench (${QUICK ? "quick" : "full"}): echo on server-everything, node ${process.version}, load ${loadavg()}`,
);
const servers = {};
for (const [name, start] of Object.entries(starters)) servers[name] = await start();
const paths = PATHS.map((path) => ({ ...path, server: servers[path.target] }));

// 1 client, one call at a time.
for (const path of paths) {
  path.single = await connectRaw(path.server.url, path.era);
  for (let n = 0; n < PLAN.warmup; n++) await path.single.echo(path.server.tool, `w${n}`);
  path.sequential = { latencies: [], cpu: [], rounds: [] };
}
for (let round = 0; round < PLAN.rounds; round++) {
  for (const path of paths) {
    const before = path.sequential.latencies.length;
    await sequentialRound(path, path.sequential);
    path.sequential.rounds.push(median(path.sequential.latencies.slice(before)));
  }
}
for (const path of paths) await path.single.close();

// 64 clients at once (each its own session in the 2025 era).
const connectStarted = performance.now();
for (const path of paths) {
  const started = performance.now();
  const { url, tool } = path.server;
  path.clients = await connectManyRaw(url, path.era, PLAN.clients);
  await Promise.all(path.clients.map((client, index) => client.echo(tool, `w${index}`)));
  path.connectSeconds = (performance.now() - started) / 1000;
  path.concurrent = { rates: [], cpu: [] };
  path.resent = 0;
}
const connectSeconds = (performance.now() - connectStarted) / 1000;
for (let round = 0; round < PLAN.rounds; round++) {
  for (const path of paths) await concurrentRound(path, path.concurrent);
}
await Promise.all(paths.flatMap((path) => path.clients.map((client) => client.close().catch(() => {}))));

const header = (label) => `${pad(label, 12)} ${pad("CPU µs/call", 11)} ${pad("gw alone", 8)} ${pad("client", 7)}`;
const cpuColumns = (cpu) =>
  `${pad(meanCpu(cpu, "tree").toFixed(0), 11)} ${pad(meanCpu(cpu, "own").toFixed(0), 8)} ${pad(meanCpu(cpu, "client").toFixed(0), 7)}`;
console.log(
  `\n${"path".padEnd(26)} ${pad("p50 ms", 7)} ${pad("p95 ms", 7)} ${header("")} | ${header(`calls/s @${PLAN.clients}`)} ${pad("connect s", 9)}`,
);
for (const path of paths) {
  const { sequential: one, concurrent: many } = path;
  console.log(
    `${path.name.padEnd(26)} ${pad(quantile(one.latencies, 0.5).toFixed(2), 7)} ${pad(quantile(one.latencies, 0.95).toFixed(2), 7)} ` +
      `${pad("", 12)} ${cpuColumns(one.cpu)} | ${pad(median(many.rates).toFixed(0), 12)} ${cpuColumns(many.cpu)} ` +
      `${pad(path.connectSeconds.toFixed(1), 9)}`,
  );
}
console.log(
  "(CPU per call from /proc: the target's process tree, the gateway process alone, and this bench's clients)",
);

const byName = Object.fromEntries(paths.map((path) => [path.name, path]));
/** Median over rounds of subject/baseline, with the min-max. */
function roundRatio(subject, baseline, pick) {
  const ratios = pick(subject).map((value, round) => value / pick(baseline)[round]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
const show = ({ median: mid, min, max }) => `x${mid.toFixed(2)} (${min.toFixed(2)}-${max.toFixed(2)})`;
const cpuRatio = (subject, baseline, phase) =>
  (meanCpu(subject[phase].cpu, "tree") / meanCpu(baseline[phase].cpu, "tree")).toFixed(2);

const indus = byName["indusr --http"];
const modern = byName[`indusr --http ${MODERN}`];
const sg = byName.supergateway;
const own = byName["everything (own HTTP)"];
const throughput = roundRatio(indus, sg, (path) => path.concurrent.rates);
const latency = roundRatio(indus, own, (path) => path.sequential.rounds);
console.log("\nratios (median of per-round ratios, min-max; CPU = process tree per call)");
console.log(
  `  calls/s @${PLAN.clients}  indusr / supergateway          ${show(throughput)}  target >= ${TARGETS.throughput}  ` +
    `${throughput.median >= TARGETS.throughput ? "met" : "NOT met"}; CPU x${cpuRatio(indus, sg, "concurrent")}`,
);
console.log(
  `  p50 @1        indusr / everything own HTTP   ${show(latency)}  target <= ${TARGETS.latency}  ` +
    `${latency.median <= TARGETS.latency ? "met" : "NOT met"}; CPU x${cpuRatio(indus, own, "sequential")}`,
);
console.log(
  `  calls/s @${PLAN.clients}  indusr / everything own HTTP   ${show(roundRatio(indus, own, (path) => path.concurrent.rates))}; CPU x${cpuRatio(indus, own, "concurrent")}`,
);
console.log(
  `  p50 @1        supergateway / everything      ${show(roundRatio(sg, own, (path) => path.sequential.rounds))}; CPU x${cpuRatio(sg, own, "sequential")}`,
);
console.log(
  `  p50 @1        indusr ${MODERN} / 2025      ${show(roundRatio(modern, indus, (path) => path.sequential.rounds))}; ` +
    `calls/s @${PLAN.clients} ${show(roundRatio(modern, indus, (path) => path.concurrent.rates))}`,
);
const resentByPath = Object.fromEntries(
  paths.filter((path) => path.resent > 0).map((path) => [path.name, path.resent]),
);
if (resent.count > 0 || Object.keys(resentByPath).length > 0) {
  console.log(
    `\ncalls sent again after a keep-alive race: 1 client ${resent.count - sum(paths.map((path) => path.resent))}; ${PLAN.clients} clients ${JSON.stringify(resentByPath)}`,
  );
}
console.log(
  `\nconnecting ${PLAN.clients} clients to every path took ${connectSeconds.toFixed(1)} s; load now ${loadavg()}; ` +
    `done in ${((performance.now() - began) / 1000).toFixed(1)} s`,
);
if (PROFILE.length > 0) {
  // A profile is written on a clean exit only: let indusr shut down on SIGTERM.
  servers.indusr.child.kill("SIGTERM");
  await once(servers.indusr.child, "exit");
}
process.exit(0);
