#!/usr/bin/env node
// The stdio gateway hop: one client calling server-everything's `echo`
// directly, and through a provider host (the BUILT package) whose box forwards
// to server-everything (one extra hop), both over stdio and in the 2025 era;
// then the same gateway from a 2026-07-28 client. Sequential calls, in
// interleaved blocks so load on a shared machine hits every path alike.
// Prints p50/p99 per path, the hop ratio (gateway p50 / direct p50) and the
// modern/legacy p50 ratio through the gateway, all measured in this run. Two
// references read the ratio: a line relay (an extra process that only passes
// lines: the floor no stdio gateway gets under) and the CPU each process
// behind the client spent per call (from /proc, Linux; steadier than latency
// on a busy machine).
//
//   node bench/stdio-hop.mjs              (full)
//   BENCH_QUICK=1 node bench/stdio-hop.mjs
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const QUICK = process.env.BENCH_QUICK === "1";
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const FORWARDING_HOST = join(here, "forwarding-host.mjs");
const LINE_RELAY = join(here, "line-relay.mjs");

const BLOCK = 10;
const BLOCKS = QUICK ? 60 : 300;
const WARMUP = QUICK ? 50 : 200;
/** The bound on the hop: gateway p50 at most this many times a direct call. */
const HOP_BOUND = 2.0;

async function connect(args, mode) {
  const client = new Client(
    { name: "stdio-hop-bench", version: "1.0.0" },
    mode === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** CPU time (user + system, ms) a process has used, or undefined off Linux. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function call(client, n) {
  const started = performance.now();
  const result = await client.request({
    method: "tools/call",
    params: { name: "echo", arguments: { message: `m${n}` } },
  });
  const elapsed = performance.now() - started;
  if (result.content?.[0]?.text !== `Echo: m${n}`) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return elapsed;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const path = async (name, args, mode) => ({ name, ...(await connect(args, mode)), samples: [], cpu: 0 });
const paths = [
  await path("direct (2025 era)", [EVERYTHING, "stdio"], "legacy"),
  await path("via provider-host (2025 era)", [FORWARDING_HOST, "stdio"], "legacy"),
  await path("via provider-host (2026-07-28)", [FORWARDING_HOST, "stdio"], "modern"),
  await path("via line relay (floor)", [LINE_RELAY], "legacy"),
];
const [direct, legacy, modern, relay] = paths;
if (modern.client.getProtocolEra() !== "modern") throw new Error("the modern client did not negotiate 2026-07-28");

for (const each of paths) for (let n = 0; n < WARMUP; n++) await call(each.client, n);
for (let block = 0; block < BLOCKS; block++) {
  for (const each of paths) {
    const before = cpuMs(each.pid);
    for (let n = 0; n < BLOCK; n++) each.samples.push(await call(each.client, n));
    const after = cpuMs(each.pid);
    if (before !== undefined && after !== undefined) each.cpu += after - before;
  }
}
for (const each of paths) await each.client.close();

const p50 = {};
console.log(`stdio hop, ${BLOCKS * BLOCK} sequential echo calls per path${QUICK ? " (BENCH_QUICK)" : ""}`);
console.log("path                              p50 ms   p99 ms   CPU us/call (the process the client spawned)");
for (const each of paths) {
  const sorted = [...each.samples].sort((a, b) => a - b);
  p50[each.name] = percentile(sorted, 50);
  const cpu = ((each.cpu * 1000) / each.samples.length).toFixed(0);
  console.log(
    `${each.name.padEnd(32)} ${percentile(sorted, 50).toFixed(3).padStart(7)}  ${percentile(sorted, 99).toFixed(3).padStart(7)}  ${cpu.padStart(6)}`,
  );
}
const hop = p50[legacy.name] / p50[direct.name];
const floor = p50[relay.name] / p50[direct.name];
const eras = p50[modern.name] / p50[legacy.name];
console.log(`hop ratio (gateway p50 / direct p50, 2025 era): ${hop.toFixed(2)}x (bound ${HOP_BOUND.toFixed(1)}x)`);
console.log(`floor (line relay p50 / direct p50): ${floor.toFixed(2)}x`);
console.log(`modern / legacy p50 through the gateway: ${eras.toFixed(2)}x`);
process.exit(0);
