#!/usr/bin/env node
// The stdio gateway hop of the real gateway: one v2 client calling
// server-everything's `echo` directly, and through `indusr mcp serve` (stdio,
// server-everything mounted over stdio, `--names as-is --no-builtins`), in the
// 2025 era and from a 2026-07-28 client; beside them a line relay (an extra
// process that only passes lines: the floor no stdio gateway gets under) and
// a bare v2 SDK forwarder (a low-level SDK Server forwarding to an SDK Client,
// no indus code: the floor of any gateway built on two SDK stacks).
// Sequential calls in interleaved blocks, so load on a shared machine hits
// every path alike. Prints p50/p99 per path, the hop ratio (gateway p50 /
// direct p50; the bound: 1.8x, in both eras), both floors, what indus adds over the
// SDK's own floor, modern/legacy through the gateway and through the bare
// SDK forwarder (what the 2026-07-28 wire costs two SDK stacks alone) and
// indus's share of that era gap (the first divided by the second), and the
// CPU per call of the spawned process (from /proc, Linux) and of the bench's
// own client (a 2026-07-28 client does more per call than a 2025 one).
// server-everything speaks the 2025 era only, so its 2026-07-28 row divides by
// a 2025 call. A second round measures each era against a direct call of the
// same era, on a v2 SDK server that speaks both (bench/echo-sdk-server.mjs;
// the gateway mounts it as a user would, so it speaks 2026-07-28 upstream).
// The provider host's own hop, without the CLI, is
// packages/provider-host/bench/stdio-hop.mjs.
//
//   pnpm build && node bench/stdio-gateway.mjs     (full)
//   BENCH_QUICK=1 node bench/stdio-gateway.mjs     (reduced; bench/ci.sh)
//   BENCH_WARMUP=<calls>: calls per path before timing (default 200, quick 50).
//   BENCH_PROFILE=<dir>: the gateway writes a V8 CPU profile there.
//   BENCH_AGAINST=<indusr.js of another build>: that build's gateway takes turns
//   too (both eras), and the p50 of this build over that one is printed.
//   BENCH_TRACE=1: also prints the gateway's own part of a call (T1: client's
//   line read -> upstream written; T2: upstream's line read -> client written;
//   see bench/hop-trace.mjs), beside the line relay's.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectPath, measurePaths, printPaths } from "../packages/provider-host/bench/stdio-paths.mjs";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const LINE_RELAY = join(root, "packages", "provider-host", "bench", "line-relay.mjs");
const ECHO_SDK_SERVER = join(root, "bench", "echo-sdk-server.mjs");
const SDK_FORWARDER = join(root, "packages", "provider-host", "bench", "sdk-forwarder.mjs");
const PROFILE = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE] : [];
const TRACE = process.env.BENCH_TRACE === "1";
const HOP_TRACE = join(root, "bench", "hop-trace.mjs");

const BLOCKS = QUICK ? 60 : 300;
/**
 * Calls per path before timing. V8 is still optimising the gateway's call path for several thousand calls (in a
 * `--log-code` run its TurboFan compiles fell to about none only after ~8,000 calls), and that compile work counts in
 * the process's CPU per call; BENCH_WARMUP=<calls> sets a longer warm-up.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 50 : 200));
/** The bound: gateway p50 at most this many times a direct call. */
const HOP_BOUND = 1.8;

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
const work = mkdtempSync(join(tmpdir(), "indus-stdio-gateway-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
/** `indusr mcp serve` mounting `server` (a config row) alone, under its own names. */
const gatewayOf = (name, server) => {
  const config = join(work, `${name}.json`);
  writeFileSync(config, JSON.stringify({ servers: { [name]: server } }));
  return [
    ...PROFILE,
    INDUSR,
    ...["mcp", "serve", "--names", "as-is", "--no-builtins", "--mcp", config, "--log-dir", join(work, "logs")],
    // The bench calls the mounted server at once: wait for it however loaded the machine is.
    ...["--boot-wait", "120000"],
  ];
};
const EVERYTHING_ROW = { command: process.execPath, args: [EVERYTHING, "stdio"] };
const GATEWAY = gatewayOf("everything", EVERYTHING_ROW);
const AGAINST = process.env.BENCH_AGAINST;
const AGAINST_GATEWAY = AGAINST && GATEWAY.map((arg) => (arg === INDUSR ? AGAINST : arg));

/** Under BENCH_TRACE, a spawned process's p50 T1/T2 go to this file (read after it exits). */
const traceFile = (name) => join(work, `trace-${name.replace(/\W+/g, "-")}.json`);

/** A path; under BENCH_TRACE, anything but the direct server runs with the trace hooks loaded. */
const path = (name, args, era) =>
  connectPath(name, TRACE && name !== "direct" ? ["--import", HOP_TRACE, ...args] : args, era, {
    cwd: work,
    ...(TRACE ? { env: { ...process.env, HOP_TRACE_FILE: traceFile(name) } } : {}),
  });
const paths = [
  await path("direct", [EVERYTHING, "stdio"], "legacy"),
  await path("indusr mcp serve (2025 era)", GATEWAY, "legacy"),
  await path("indusr mcp serve (2026-07-28)", GATEWAY, "modern"),
  await path("line relay (floor)", [LINE_RELAY], "legacy"),
  await path("bare v2 SDK forwarder", [SDK_FORWARDER], "legacy"),
  await path("bare v2 SDK forwarder (2026)", [SDK_FORWARDER], "modern"),
  ...(AGAINST_GATEWAY
    ? [
        await path("BENCH_AGAINST build (2025)", AGAINST_GATEWAY, "legacy"),
        await path("BENCH_AGAINST build (2026)", AGAINST_GATEWAY, "modern"),
      ]
    : []),
];
const [direct, legacy, modern, relay, sdk, sdkModern, againstLegacy, againstModern] = paths;

const loadBefore = loadavg()[0];
await measurePaths(paths, { blocks: BLOCKS, warmup: WARMUP });
const loadAfter = loadavg()[0];
// A CPU profile is written on a clean exit only: end the gateways by closing their stdin.
for (const each of paths) await each.client.close();
/** The processes write their trace on exit, a moment after their stdin closed. */
const traceOf = async (name) => {
  for (let tries = 0; tries < 50; tries++) {
    if (existsSync(traceFile(name))) return JSON.parse(readFileSync(traceFile(name), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
};

console.log(
  `stdio gateway hop, ${direct.samples.length} sequential echo calls per path after ${WARMUP} warm-up calls${QUICK ? " (BENCH_QUICK)" : ""}, load ${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)}`,
);
const p50 = printPaths(paths);
const ratio = (a, b) => (p50[a.name] / p50[b.name]).toFixed(2);
console.log(
  `hop ratio (indusr p50 / direct p50, 2025 era): ${ratio(legacy, direct)}x (bound ${HOP_BOUND.toFixed(1)}x)`,
);
console.log(
  `hop ratio (indusr p50 / direct p50, 2026-07-28 client): ${ratio(modern, direct)}x (bound ${HOP_BOUND.toFixed(1)}x)`,
);
const floor = ratio(relay, direct);
console.log(
  `floor (line relay p50 / direct p50): ${floor}x${Number(floor) > HOP_BOUND ? ": above the bound, which no process between client and server meets here" : ""}`,
);
console.log(`SDK floor (bare v2 SDK forwarder p50 / direct p50): ${ratio(sdk, direct)}x`);
console.log(`indus over the SDK floor (indusr p50 / bare SDK forwarder p50, 2025 era): ${ratio(legacy, sdk)}x`);
console.log(`modern / legacy p50 through the gateway: ${ratio(modern, legacy)}x`);
console.log(`modern / legacy p50 through the bare SDK forwarder: ${ratio(sdkModern, sdk)}x`);
const perCall = (each, field) => (each[field] * 1000) / each.samples.length;
const cpuRatio = (a, b, field) => (perCall(a, field) / perCall(b, field)).toFixed(2);
console.log(
  `indus over the SDK floor in CPU per call (gateway / bare SDK forwarder): ${cpuRatio(legacy, sdk, "cpu")}x (2025 era), ${cpuRatio(modern, sdkModern, "cpu")}x (2026-07-28)`,
);
console.log(
  `modern / legacy CPU per call: gateway ${cpuRatio(modern, legacy, "cpu")}x, bench client ${cpuRatio(modern, legacy, "clientCpu")}x (through the SDK forwarder: ${cpuRatio(sdkModern, sdk, "cpu")}x, client ${cpuRatio(sdkModern, sdk, "clientCpu")}x)`,
);
// The era gap two SDK stacks have on their own divides out: what is left is indus's share of it.
const eraShare = (value) => (value(modern) / value(legacy) / (value(sdkModern) / value(sdk))).toFixed(2);
console.log(
  `era gap indus adds over the SDK's own (gateway modern/legacy / SDK forwarder modern/legacy): p50 ${eraShare((each) => p50[each.name])}x, CPU per call ${eraShare((each) => perCall(each, "cpu"))}x`,
);
if (againstLegacy && againstModern) {
  console.log(
    `this build / BENCH_AGAINST build, p50: ${ratio(legacy, againstLegacy)}x (2025 era), ${ratio(modern, againstModern)}x (2026-07-28 client)`,
  );
}
if (TRACE) {
  console.log(
    "own part of a call (p50 us): T1 client line read -> upstream written, T2 upstream line read -> client written",
  );
  for (const each of [legacy, modern, relay, sdk]) {
    const trace = await traceOf(each.name);
    if (trace)
      console.log(
        `  ${each.name.padEnd(32)} T1 ${trace.t1.toFixed(1).padStart(6)}  T2 ${trace.t2.toFixed(1).padStart(6)}`,
      );
  }
}
await sameServerEras();
process.exit(0);

/**
 * The second round: each era through the gateway against a direct call of the same era, on one v2 SDK server.
 * Never traced: its ratios are read as they are, and the trace's hooks would weigh on the gateway side alone.
 */
async function sameServerEras() {
  const gateway = gatewayOf("echo", { command: process.execPath, args: [ECHO_SDK_SERVER] });
  const untraced = (name, args, era) => connectPath(name, args, era, { cwd: work });
  const round = [
    await untraced("direct (2025)", [ECHO_SDK_SERVER], "legacy"),
    await untraced("direct (2026-07-28)", [ECHO_SDK_SERVER], "modern"),
    await untraced("indusr mcp serve (2025)", gateway, "legacy"),
    await untraced("indusr mcp serve (2026-07-28)", gateway, "modern"),
  ];
  const [direct25, direct26, gateway25, gateway26] = round;
  const before = loadavg()[0];
  await measurePaths(round, { blocks: BLOCKS, warmup: WARMUP });
  console.log(
    `\nthe same server in both eras (a v2 SDK server; the gateway speaks 2026-07-28 to it), ${direct25.samples.length} calls per path, load ${before.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
  );
  const p50 = printPaths(round);
  const ratio = (a, b) => (p50[a.name] / p50[b.name]).toFixed(2);
  console.log(
    `hop ratio, 2025 era (indusr p50 / direct p50): ${ratio(gateway25, direct25)}x (bound ${HOP_BOUND.toFixed(1)}x)`,
  );
  console.log(
    `hop ratio, 2026-07-28 era (indusr p50 / direct p50): ${ratio(gateway26, direct26)}x (bound ${HOP_BOUND.toFixed(1)}x)`,
  );
  console.log(
    `modern / legacy p50: direct ${ratio(direct26, direct25)}x (the SDK's own), through the gateway ${ratio(gateway26, gateway25)}x`,
  );
  for (const each of round) await each.client.close();
}
