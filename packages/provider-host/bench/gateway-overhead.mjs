#!/usr/bin/env node
// Gateway overhead: a client calling server-everything's `echo` through a
// provider host whose box forwards to server-everything (one extra hop), vs
// calling server-everything directly, over stdio and over Streamable HTTP; and
// the same HTTP path through supergateway (stdio→Streamable HTTP, --stateful),
// all in one run. Prints p50/p99 latency, calls/s and the CPU the server side
// spent per call (the processes behind the endpoint, from /proc: robust on a
// busy machine, where latency is not) at 1 and 64 concurrent
// clients, and the ratios against the direct baseline.
//
//   pnpm --filter @indus/provider-host bench          (full)
//   BENCH_QUICK=1 pnpm --filter @indus/provider-host bench
//
// Concurrency: over HTTP, N clients are N sessions. Over stdio (one client per
// process by nature) N is N calls in flight on the one session. supergateway
// --stateful spawns one server-everything per session; in quick mode it is
// measured at 1 client only (64 spawns alone take ~30 s on a busy 2-core box).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const QUICK = process.env.BENCH_QUICK === "1";
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const SUPERGATEWAY = join(dirname(require.resolve("supergateway/package.json")), "dist", "index.js");
const FORWARDING_HOST = join(here, "forwarding-host.mjs");

/** Calls per client: [concurrency 1, concurrency 64]. */
const CALLS = QUICK ? { 1: 100, 64: 3 } : { 1: 1000, 64: 40 };
const WARMUP = QUICK ? 10 : 50;
const LEVELS = [1, 64];

const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Parent pid of every process, from /proc (Linux); empty elsewhere. */
function parentMap() {
  const parents = new Map();
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
        parents.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    // no /proc
  }
  return parents;
}

/** CPU seconds (user+system) of the given processes and all their descendants; NaN without /proc. */
function treeCpuSeconds(roots) {
  const processes = parentMap();
  if (processes.size === 0) return Number.NaN;
  const inTree = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, { ppid }] of processes) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of inTree) ticks += processes.get(pid)?.ticks ?? 0;
  return ticks / 100;
}

async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHttp(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { method: "GET" });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} never came up`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Each target makes a connected SDK client; `stop` ends the processes behind it. */
const targets = {
  "stdio direct": async () => {
    const make = async () =>
      connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
    return {
      sharedSession: true,
      make,
      pids: (clients) => clients.map((client) => client.transport.pid),
      stop: async () => {},
    };
  },
  "stdio via provider-host": async () => {
    const make = async () =>
      connect(
        new StdioClientTransport({ command: process.execPath, args: [FORWARDING_HOST, "stdio"], stderr: "ignore" }),
      );
    return {
      sharedSession: true,
      make,
      pids: (clients) => clients.map((client) => client.transport.pid),
      stop: async () => {},
    };
  },
  "http direct": async () => {
    const port = await freePort();
    const child = track(
      spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
        env: { ...process.env, PORT: String(port) },
        stdio: "ignore",
      }),
    );
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    await waitForHttp(url);
    return {
      make: () => connect(new StreamableHTTPClientTransport(url)),
      pids: () => [child.pid],
      stop: () => kill(child),
    };
  },
  "http via provider-host": async () => {
    const child = track(spawn(process.execPath, [FORWARDING_HOST, "http"], { stdio: ["ignore", "pipe", "ignore"] }));
    const [line] = await once(createInterface({ input: child.stdout }), "line");
    const url = new URL(line.trim());
    return {
      make: () => connect(new StreamableHTTPClientTransport(url)),
      pids: () => [child.pid],
      stop: () => kill(child),
    };
  },
  "http via supergateway": async () => {
    const port = await freePort();
    const child = track(
      spawn(
        process.execPath,
        [
          SUPERGATEWAY,
          "--stdio",
          `${process.execPath} ${EVERYTHING} stdio`,
          "--outputTransport",
          "streamableHttp",
          "--stateful",
          "--port",
          String(port),
          "--logLevel",
          "none",
        ],
        { stdio: "ignore" },
      ),
    );
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    await waitForHttp(url);
    return {
      make: () => connect(new StreamableHTTPClientTransport(url)),
      pids: () => [child.pid],
      stop: () => kill(child),
    };
  },
};

/** A v2 SDK client in its default (2025 `initialize`) era, as the gateway's legacy clients connect. */
async function connect(transport) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function kill(child) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await Promise.race([once(child, "exit"), new Promise((resolve) => setTimeout(resolve, 3000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

async function echo(client, message) {
  const result = await client.callTool({ name: "echo", arguments: { message } });
  if (result.isError || !JSON.stringify(result.content).includes(message)) {
    throw new Error(`unexpected echo answer: ${JSON.stringify(result)}`);
  }
}

async function measure(name, concurrency) {
  const target = await targets[name]();
  const clientCount = target.sharedSession ? 1 : concurrency;
  const clients = [];
  try {
    for (let index = 0; index < clientCount; index += 8) {
      const batch = Math.min(8, clientCount - index);
      clients.push(...(await Promise.all(Array.from({ length: batch }, () => target.make()))));
    }
    const perWorker = CALLS[concurrency];
    const workers = Array.from({ length: concurrency }, (_, index) => clients[index % clients.length]);
    await Promise.all(
      workers.map(async (client, index) => {
        for (let call = 0; call < Math.ceil(WARMUP / concurrency); call++) await echo(client, `warm-${index}-${call}`);
      }),
    );
    const latencies = [];
    const serverCpu = () => treeCpuSeconds(target.pids(clients));
    const cpuBefore = serverCpu();
    const started = performance.now();
    await Promise.all(
      workers.map(async (client, index) => {
        for (let call = 0; call < perWorker; call++) {
          const begin = performance.now();
          await echo(client, `m-${index}-${call}`);
          latencies.push(performance.now() - begin);
        }
      }),
    );
    const elapsed = performance.now() - started;
    const cpuPerCall = ((serverCpu() - cpuBefore) / latencies.length) * 1e6;
    latencies.sort((a, b) => a - b);
    const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    return {
      name,
      concurrency,
      calls: latencies.length,
      p50: pick(0.5),
      p99: pick(0.99),
      rate: (latencies.length / elapsed) * 1000,
      cpuPerCall,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await target.stop();
  }
}

const fmt = (value, digits = 2) => value.toFixed(digits).padStart(8);
const results = [];
const began = Date.now();
console.log(
  `gateway overhead bench (${QUICK ? "quick" : "full"}): echo via server-everything, node ${process.version}`,
);
console.log(
  `${"path".padEnd(26)} ${"clients".padStart(7)} ${"calls".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"calls/s".padStart(9)} ${"srv CPU µs/call".padStart(15)}`,
);
for (const concurrency of LEVELS) {
  for (const name of Object.keys(targets)) {
    if (QUICK && concurrency > 1 && name.includes("supergateway")) continue;
    const rowStarted = Date.now();
    const result = await measure(name, concurrency);
    result.seconds = (Date.now() - rowStarted) / 1000;
    results.push(result);
    console.log(
      `${name.padEnd(26)} ${String(concurrency).padStart(7)} ${String(result.calls).padStart(6)} ${fmt(result.p50)} ${fmt(result.p99)} ${fmt(result.rate, 0).padStart(9)} ${fmt(result.cpuPerCall, 0).padStart(15)}   (${result.seconds.toFixed(1)} s)`,
    );
  }
}

const find = (name, concurrency) =>
  results.find((result) => result.name === name && result.concurrency === concurrency);
console.log("\nratios (higher latency ratio = slower; throughput ratio < 1 = fewer calls/s)");
for (const concurrency of LEVELS) {
  const pairs = [
    ["stdio via provider-host", "stdio direct"],
    ["http via provider-host", "http direct"],
    ["http via supergateway", "http direct"],
    ["http via provider-host", "http via supergateway"],
  ];
  for (const [subject, baseline] of pairs) {
    const a = find(subject, concurrency);
    const b = find(baseline, concurrency);
    if (a === undefined || b === undefined) continue;
    console.log(
      `  c=${String(concurrency).padEnd(3)} ${subject} / ${baseline}: p50 x${(a.p50 / b.p50).toFixed(2)}, p99 x${(a.p99 / b.p99).toFixed(2)}, calls/s x${(a.rate / b.rate).toFixed(2)}, server CPU/call x${(a.cpuPerCall / b.cpuPerCall).toFixed(2)}`,
    );
  }
}
const stdioDirect = find("stdio direct", 1);
const stdioHop = find("stdio via provider-host", 1);
const httpHop = find("http via provider-host", 1);
const httpDirect = find("http direct", 1);
console.log(
  `\nextra hop at c=1: stdio +${(stdioHop.p50 - stdioDirect.p50).toFixed(2)} ms, http +${(httpHop.p50 - httpDirect.p50).toFixed(2)} ms (p50)` +
    `; one stdio round trip to server-everything = ${stdioDirect.p50.toFixed(2)} ms`,
);
console.log(`done in ${((Date.now() - began) / 1000).toFixed(1)} s`);
process.exit(0);
