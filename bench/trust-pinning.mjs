#!/usr/bin/env node
// What pinning costs (the trust gate: every definition digested, inspected
// and compared with the lock file beside the config). Two measurements, each
// a ratio against a baseline in the same run, the two arms interleaved so
// load on a shared machine hits both alike:
//
//  1. `indusr mcp status` with 20 servers (the dependency-free shifting
//     fixture: 3 tools, a prompt, 2 resources, a template and a ui:// body
//     each), pinned (the lock file written by a first run) against the same
//     servers under `trust: "off"`: the wall time of the whole process, median
//     of the per-pair ratios. Bound: at most 1.05.
//  2. One call through `indusr mcp serve` (stdio, server-everything mounted,
//     as-is names): the p50 of sequential echo calls, pinned against
//     `trust: "off"`. Bound: nothing measurable (within the noise, 1.00 +- 0.05).
//
//   pnpm build && node bench/trust-pinning.mjs     (full)
//   BENCH_QUICK=1 node bench/trust-pinning.mjs     (reduced; bench/ci.sh)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { connectPath, measurePaths, printPaths } from "../packages/provider-host/bench/stdio-paths.mjs";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const SHIFTING = join(root, "packages", "testkit", "fixtures", "shifting-server.mjs");
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const SERVERS = 20;
const PAIRS = QUICK ? 4 : 12;
const STATUS_BOUND = 1.05;

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
const work = mkdtempSync(join(tmpdir(), "indus-trust-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, HOME: work, XDG_CONFIG_HOME: join(work, "xdg"), NO_COLOR: "1" };

/** A config of `servers` rows in a file of its own (its lock file goes beside it). */
function config(name, servers) {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

function shiftingServers(trust) {
  const rows = {};
  for (let i = 0; i < SERVERS; i++)
    rows[`s${i}`] = { command: process.execPath, args: [SHIFTING, `name=s${i}`], ...(trust ? { trust } : {}) };
  return rows;
}

/** Wall milliseconds of one `indusr mcp status` over `file`. */
function status(file) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [INDUSR, "mcp", "status", "--mcp", file], {
    env,
    cwd: work,
    stdio: "ignore",
  });
  const elapsed = performance.now() - started;
  if (run.status !== 0) throw new Error(`mcp status over ${file} exited ${run.status}`);
  return elapsed;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function measureStatus() {
  const pinned = config("pinned", shiftingServers());
  const off = config("off", shiftingServers("off"));
  status(pinned); // the first run writes the lock file: what follows is the steady state
  status(off);
  const ratios = [];
  const times = { pinned: [], off: [] };
  for (let pair = 0; pair < PAIRS; pair++) {
    // Alternate which arm goes first, so neither always runs on a warmer machine.
    const [a, b] = pair % 2 === 0 ? [pinned, off] : [off, pinned];
    const first = status(a);
    const second = status(b);
    const [p, o] = a === pinned ? [first, second] : [second, first];
    times.pinned.push(p);
    times.off.push(o);
    ratios.push(p / o);
  }
  const ratio = median(ratios);
  console.log(`mcp status, ${SERVERS} servers, ${PAIRS} interleaved pairs${QUICK ? " (BENCH_QUICK)" : ""}`);
  console.log(`  pinned  median ${median(times.pinned).toFixed(0)} ms`);
  console.log(`  off     median ${median(times.off).toFixed(0)} ms`);
  console.log(
    `  pinned / off: ${ratio.toFixed(3)}x (bound ${STATUS_BOUND.toFixed(2)}x) ${ratio <= STATUS_BOUND ? "ok" : "OVER"}`,
  );
  return ratio;
}

async function measureCall() {
  const gateway = (file) => [
    INDUSR,
    ...["mcp", "serve", "--names", "as-is", "--no-builtins", "--profile", "survey", "--mcp", file],
    ...["--log-dir", join(work, "logs"), "--boot-wait", "120000"],
  ];
  const pinned = config("call-pinned", { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
  const off = config("call-off", {
    everything: { command: process.execPath, args: [EVERYTHING, "stdio"], trust: "off" },
  });
  const spawn = { cwd: work, env };
  const paths = [
    await connectPath("gateway, pinned", gateway(pinned), "legacy", spawn),
    await connectPath("gateway, trust off", gateway(off), "legacy", spawn),
  ];
  await measurePaths(paths, { blocks: QUICK ? 40 : 200, warmup: QUICK ? 50 : 200 });
  for (const each of paths) await each.client.close();
  console.log(`one echo call through mcp serve, ${paths[0].samples.length} sequential calls per path`);
  const p50 = printPaths(paths);
  const ratio = p50["gateway, pinned"] / p50["gateway, trust off"];
  console.log(`  pinned / off p50: ${ratio.toFixed(3)}x (nothing measurable: within 1.00 +- 0.05)`);
  return ratio;
}

console.log(`load ${loadavg()[0].toFixed(1)} (1-minute average)`);
measureStatus();
await measureCall();
process.exit(0);
