#!/usr/bin/env node
// The stdio gateway hop: one client calling server-everything's `echo`
// directly, and through a provider host (the BUILT package) whose box forwards
// to server-everything (one extra hop), both over stdio and in the 2025 era;
// then the same gateway from a 2026-07-28 client. Sequential calls, in
// interleaved blocks so load on a shared machine hits every path alike.
// Prints p50/p99 per path, the hop ratio (gateway p50 / direct p50) and the
// modern/legacy p50 ratio through the gateway, all measured in this run.
//
//   node bench/stdio-hop.mjs              (full)
//   BENCH_QUICK=1 node bench/stdio-hop.mjs
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
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" }));
  return client;
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

const paths = [
  { name: "direct (2025 era)", client: await connect([EVERYTHING, "stdio"], "legacy"), samples: [] },
  { name: "via provider-host (2025 era)", client: await connect([FORWARDING_HOST, "stdio"], "legacy"), samples: [] },
  { name: "via provider-host (2026-07-28)", client: await connect([FORWARDING_HOST, "stdio"], "modern"), samples: [] },
];
const [direct, legacy, modern] = paths;
if (modern.client.getProtocolEra() !== "modern") throw new Error("the modern client did not negotiate 2026-07-28");

for (const path of paths) for (let n = 0; n < WARMUP; n++) await call(path.client, n);
for (let block = 0; block < BLOCKS; block++) {
  for (const path of paths) for (let n = 0; n < BLOCK; n++) path.samples.push(await call(path.client, n));
}
for (const path of paths) await path.client.close();

const p50 = {};
console.log(`stdio hop, ${BLOCKS * BLOCK} sequential echo calls per path${QUICK ? " (BENCH_QUICK)" : ""}`);
console.log("path                              p50 ms   p99 ms");
for (const path of paths) {
  const sorted = [...path.samples].sort((a, b) => a - b);
  p50[path.name] = percentile(sorted, 50);
  console.log(
    `${path.name.padEnd(32)} ${percentile(sorted, 50).toFixed(3).padStart(7)}  ${percentile(sorted, 99).toFixed(3).padStart(7)}`,
  );
}
const hop = p50[legacy.name] / p50[direct.name];
const eras = p50[modern.name] / p50[legacy.name];
console.log(`hop ratio (gateway p50 / direct p50, 2025 era): ${hop.toFixed(2)}x (bound ${HOP_BOUND.toFixed(1)}x)`);
console.log(`modern / legacy p50 through the gateway: ${eras.toFixed(2)}x`);
process.exit(0);
