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
// the p50 of those calls, and the CPU time the gateway's process tree, its
// stdio server included, spent per call there: a figure a loaded machine
// disturbs far less than wall time),
// in the 2025 era (all three) and
// 2026-07-28 (indusr and indusr teams). Targets take turns, round after round;
// ratios are medians of per-round ratios. Targets (issue 24): teams costs
// <= 10 % of p50 and of calls/s at 64 clients against indusr (the p50 of one
// client alone is printed against the same bound), and stays >= 2.0x
// supergateway's calls/s.
//
// The clients are raw-mcp-client.mjs (hand-written JSON-RPC on node:http, one
// keep-alive socket each), all in this thread: SDK clients cost about as much
// CPU per call as a gateway, so on 2 cores they took the gateways' CPU and
// pulled the supergateway ratio towards 1. The bench prints its own CPU per
// call beside the gateways' so a saturated load generator shows.
//
//   pnpm build && node bench/teams-gateway.mjs     (full, a few minutes)
//   BENCH_QUICK=1 node bench/teams-gateway.mjs     (reduced)
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
  ? { rounds: 3, sequential: 100, clients: 64, perClient: 10, warmup: 20 }
  : { rounds: 7, sequential: 400, clients: 64, perClient: 20, warmup: 40 };
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

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const median = (values) => quantile(values, 0.5);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const pad = (value, width) => String(value).padStart(width);
/** CPU time (user + system, ms) of process `pid` and its descendants, from /proc (clock ticks of 10 ms). */
function treeCpuMs(pid) {
  let ticks = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const id = pending.pop();
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const children = readFileSync(`/proc/${id}/task/${task}/children`, "utf8").trim();
        if (children !== "") pending.push(...children.split(" ").map(Number));
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks * 10;
}
const began = performance.now();

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
console.log(
  `teams gateway bench (${QUICK ? "quick" : "full"}): echo on server-everything, node ${process.version}, load ${loadavg()}`,
);
const servers = {};
for (const [name, start] of Object.entries(starters)) servers[name] = await start();
const paths = PATHS.map((path) => ({
  ...path,
  server: servers[path.target],
  p50s: [],
  p50s64: [],
  rates: [],
  cpus: [],
  clientCpus: [],
}));

for (const path of paths) {
  path.single = await connectRaw(path.server.url, path.era, path.server.headers);
  for (let n = 0; n < PLAN.warmup; n++) await path.single.echo(path.server.tool, `w${n}`);
}
for (let round = 0; round < PLAN.rounds; round++) {
  for (const path of paths) {
    const samples = [];
    for (let n = 0; n < PLAN.sequential; n++) {
      const started = performance.now();
      await path.single.echo(path.server.tool, `s${n}`);
      samples.push(performance.now() - started);
    }
    path.p50s.push(median(samples));
  }
}
for (const path of paths) await path.single.close();

for (const path of paths) {
  const { url, tool, headers } = path.server;
  path.clients = await connectManyRaw(url, path.era, PLAN.clients, headers);
  await Promise.all(path.clients.map((client, index) => client.echo(tool, `w${index}`)));
}
/** Each of the path's clients calls `calls` times, one after another, all clients at once; each call's ms. */
async function burst(path, calls) {
  const samples = [];
  await Promise.all(
    path.clients.map(async (client, index) => {
      for (let n = 0; n < calls; n++) {
        const started = performance.now();
        await client.echo(path.server.tool, `c${index}-${n}`);
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}
const callsPerRound = PLAN.clients * PLAN.perClient;
for (let round = 0; round < PLAN.rounds; round++) {
  for (const path of paths) {
    const started = performance.now();
    const cpuBefore = treeCpuMs(path.server.child.pid);
    const clientBefore = process.cpuUsage();
    path.p50s64.push(median(await burst(path, PLAN.perClient)));
    path.rates.push((callsPerRound / (performance.now() - started)) * 1000);
    path.cpus.push((treeCpuMs(path.server.child.pid) - cpuBefore) / callsPerRound);
    const client = process.cpuUsage(clientBefore);
    path.clientCpus.push((client.user + client.system) / 1000 / callsPerRound);
  }
}
for (const path of paths) await Promise.all(path.clients.map((client) => client.close()));

const sum = (values) => values.reduce((total, value) => total + value, 0);
const mean = (values) => sum(values) / values.length;
console.log(
  `\n${"path".padEnd(24)} ${pad("p50 ms @1", 9)} ${pad(`p50 ms @${PLAN.clients}`, 10)} ${pad(`calls/s @${PLAN.clients}`, 14)} ${pad("CPU ms/call", 12)} ${pad("bench CPU ms/call", 18)}`,
);
for (const path of paths) {
  console.log(
    `${path.name.padEnd(24)} ${pad(median(path.p50s).toFixed(2), 9)} ${pad(median(path.p50s64).toFixed(2), 10)} ${pad(median(path.rates).toFixed(0), 14)} ${pad(mean(path.cpus).toFixed(3), 12)} ${pad(mean(path.clientCpus).toFixed(3), 18)}`,
  );
}
const byName = Object.fromEntries(paths.map((path) => [path.name, path]));
function ratio(subject, baseline, key) {
  const ratios = byName[subject][key].map((value, round) => value / byName[baseline][key][round]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
const show = ({ median: mid, min, max }) => `x${mid.toFixed(2)} (${min.toFixed(2)}-${max.toFixed(2)})`;
const verdict = (met) => (met ? "met" : "NOT met");
console.log("\nratios (median of per-round ratios, min-max)");
for (const era of ["", ` ${MODERN}`]) {
  const p50 = ratio(`indusr teams${era}`, `indusr${era}`, "p50s");
  const p50at64 = ratio(`indusr teams${era}`, `indusr${era}`, "p50s64");
  const rate = ratio(`indusr teams${era}`, `indusr${era}`, "rates");
  console.log(
    `  p50 @1        teams / indusr${era.padEnd(11)} ${show(p50)}  target <= ${1 + TARGETS.cost}  ${verdict(p50.median <= 1 + TARGETS.cost)}`,
  );
  console.log(
    `  p50 @${PLAN.clients}       teams / indusr${era.padEnd(11)} ${show(p50at64)}  target <= ${1 + TARGETS.cost}  ${verdict(p50at64.median <= 1 + TARGETS.cost)}`,
  );
  console.log(
    `  calls/s @${PLAN.clients}  teams / indusr${era.padEnd(11)} ${show(rate)}  target >= ${1 - TARGETS.cost}  ${verdict(rate.median >= 1 - TARGETS.cost)}`,
  );
}
for (const era of ["", ` ${MODERN}`]) {
  // Over all rounds: one round's ticks (10 ms) are too coarse for a ratio of its own.
  const cpu = sum(byName[`indusr teams${era}`].cpus) / sum(byName[`indusr${era}`].cpus);
  console.log(`  CPU/call @${PLAN.clients} teams / indusr${era.padEnd(11)} x${cpu.toFixed(2)} (all rounds)`);
}
const sgCpu = sum(byName["supergateway"].cpus) / sum(byName["indusr teams"].cpus);
console.log(`  CPU/call @${PLAN.clients} supergateway / teams        x${sgCpu.toFixed(2)} (all rounds)`);
const sg = ratio("indusr teams", "supergateway", "rates");
console.log(
  `  calls/s @${PLAN.clients}  teams / supergateway        ${show(sg)}  target >= ${TARGETS.supergateway}  ${verdict(sg.median >= TARGETS.supergateway)}`,
);
console.log(
  `  calls/s @${PLAN.clients}  indusr / supergateway       ${show(ratio("indusr", "supergateway", "rates"))}`,
);
const audit = readFileSync(join(work, "audit.log"), "utf8").trim().split("\n").length;
console.log(
  `\naudit lines written: ${audit}; calls sent again after a keep-alive race: ${resent.count}; load now ${loadavg()}; done in ${((performance.now() - began) / 1000).toFixed(1)} s`,
);
process.exit(0);
