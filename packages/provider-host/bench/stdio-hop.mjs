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
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectPath, measurePaths, printPaths } from "./stdio-paths.mjs";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const QUICK = process.env.BENCH_QUICK === "1";
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const FORWARDING_HOST = join(here, "forwarding-host.mjs");
const LINE_RELAY = join(here, "line-relay.mjs");

const BLOCKS = QUICK ? 60 : 300;
const WARMUP = QUICK ? 50 : 200;
/** The bound on the hop: gateway p50 at most this many times a direct call. */
const HOP_BOUND = 2.0;

const paths = [
  await connectPath("direct (2025 era)", [EVERYTHING, "stdio"], "legacy"),
  await connectPath("via provider-host (2025 era)", [FORWARDING_HOST, "stdio"], "legacy"),
  await connectPath("via provider-host (2026-07-28)", [FORWARDING_HOST, "stdio"], "modern"),
  await connectPath("via line relay (floor)", [LINE_RELAY], "legacy"),
];
const [direct, legacy, modern, relay] = paths;

await measurePaths(paths, { blocks: BLOCKS, warmup: WARMUP });
for (const each of paths) await each.client.close();

console.log(`stdio hop, ${paths[0].samples.length} sequential echo calls per path${QUICK ? " (BENCH_QUICK)" : ""}`);
const p50 = printPaths(paths);
const hop = p50[legacy.name] / p50[direct.name];
const floor = p50[relay.name] / p50[direct.name];
const eras = p50[modern.name] / p50[legacy.name];
console.log(`hop ratio (gateway p50 / direct p50, 2025 era): ${hop.toFixed(2)}x (bound ${HOP_BOUND.toFixed(1)}x)`);
console.log(`floor (line relay p50 / direct p50): ${floor.toFixed(2)}x`);
console.log(`modern / legacy p50 through the gateway: ${eras.toFixed(2)}x`);
process.exit(0);
