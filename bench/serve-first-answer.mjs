#!/usr/bin/env node
// The gateway's first answer: how long after `indusr mcp serve --stdio` is
// started (three servers mounted) a client's handshake is answered, the
// 2025-era `initialize` and the 2026-07-28 `server/discover` probe, beside
// the same handshake of one bare mounted server started on its own. Claude
// Code gives its probe ~2.7 s and the bound is 500 ms; the gateway
// no longer waits for its mounts to answer, so its first answer is its own
// start-up (node, the CLI's modules, the config) and not the slowest mount.
// Rounds interleave the paths, so load on a shared machine hits each alike.
// Prints min/median/max wall time from spawn to the answer, the CPU the
// spawned process spent by then (from /proc, Linux), and the load. Two floors
// run beside it: node itself (a process that prints one line at start) and a
// bare v2 SDK server (bench/bare-sdk-server.mjs); the gateway's own start is
// its answer less node's. INDUSR_BASE=<another build's indusr.js> adds that
// build's gateway, with the per-round ratios of this build to it.
//
//   pnpm build && node bench/serve-first-answer.mjs   (full: 15 rounds)
//   BENCH_QUICK=1 node bench/serve-first-answer.mjs   (5 rounds)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const ROUNDS = process.env.BENCH_QUICK === "1" ? 5 : 15;
const BOUND_MS = 500;
const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 10 ms (USER_HZ 100)

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
const work = mkdtempSync(join(tmpdir(), "indus-first-answer-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const everything = { command: process.execPath, args: [EVERYTHING, "stdio"], trust: "off" };
const config = join(work, "mcp.json");
writeFileSync(config, JSON.stringify({ servers: { one: everything, two: everything, three: everything } }));
const gatewayOf = (bin) => [bin, "mcp", "serve", "--stdio", "--no-builtins", "--profile", "survey", "--mcp", config];
const gateway = gatewayOf(INDUSR);
const env = { ...process.env, HOME: work, XDG_CONFIG_HOME: join(work, "xdg") };
const BASE = process.env.INDUSR_BASE;
const NODE_START = "node start (prints a line)";
const BARE_SDK = "bare SDK server, initialize";
const GATEWAY = "gateway (3 mounts), initialize";
const GATEWAY_BASE = "gateway, INDUSR_BASE build, initialize";

const PATHS = {
  [NODE_START]: { args: ["-e", "process.stdout.write('up\\n'); setInterval(() => {}, 1e9)"], era: "none" },
  [BARE_SDK]: { args: [join(root, "bench", "bare-sdk-server.mjs")], era: "2025" },
  "bare server-everything, initialize": { args: [EVERYTHING, "stdio"], era: "2025" },
  [GATEWAY]: { args: gateway, era: "2025" },
  "gateway (3 mounts), server/discover": { args: gateway, era: "2026" },
  ...(BASE ? { [GATEWAY_BASE]: { args: gatewayOf(BASE), era: "2025" } } : {}),
};

/** CPU the process has spent so far, in ms (utime + stime). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * A subclass, so the 2026 client probes on this transport's own process: the SDK runs `server/discover`
 * of its base stdio transport on a disposable sibling process and starts this one only afterwards, so
 * its pid after `connect()` was a process that had barely run (the CPU median read 0 ms).
 */
class InPlaceTransport extends StdioClientTransport {}

/** Spawn to the first line the process writes (no protocol): wall ms, and its CPU ms then. */
function firstLine(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, cwd: work, stdio: ["ignore", "pipe", "ignore"] });
    child.on("error", reject);
    child.stdout.once("data", () => {
      resolve({ wall: performance.now() - started, cpu: cpuMs(child.pid) });
      child.kill("SIGKILL");
    });
  });
}

/** Spawn to the handshake's answer: wall ms, and the answering process's CPU ms then (read as it answers). */
async function firstAnswer({ args, era }) {
  if (era === "none") return firstLine(args);
  const client = new Client(
    { name: "first-answer-bench", version: "1.0.0" },
    era === "2026" ? { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } } : { capabilities: {} },
  );
  const transport = new InPlaceTransport({ command: process.execPath, args, env, cwd: work, stderr: "ignore" });
  const started = performance.now();
  const answered = firstMessage(transport, started);
  await client.connect(transport);
  await client.close();
  return answered();
}

/** Wraps the handler the client installs: the first message in records wall ms since `started` and the sender's CPU. */
function firstMessage(transport, started) {
  let first;
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set(next) {
      handler =
        next &&
        ((...received) => {
          first ??= { wall: performance.now() - started, cpu: cpuMs(transport.pid) };
          return next(...received);
        });
    },
  });
  return () => {
    if (first === undefined) throw new Error("connected without a message from the server");
    return first;
  };
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) };
};
const ms = (value) => `${Math.round(value)} ms`;

const results = Object.fromEntries(Object.keys(PATHS).map((name) => [name, []]));
const loads = [];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, path] of Object.entries(PATHS)) results[name].push(await firstAnswer(path));
  loads.push(loadavg()[0]);
}

console.log(
  `first answer after start, ${ROUNDS} rounds interleaved; load (1 min) ${stats(loads).min.toFixed(1)}-${stats(loads).max.toFixed(1)}`,
);
const median = (name, of) => stats(results[name].map(of)).median;
const nodeStart = { wall: median(NODE_START, (r) => r.wall), cpu: median(NODE_START, (r) => r.cpu) };
for (const [name, runs] of Object.entries(results)) {
  const wall = stats(runs.map((r) => r.wall));
  const cpu = stats(runs.map((r) => r.cpu));
  console.log(
    `  ${name.padEnd(38)} wall min/median/max ${ms(wall.min)} / ${ms(wall.median)} / ${ms(wall.max)}; CPU median ${ms(cpu.median)}${verdictOf(name, wall.median, cpu.median)}`,
  );
}
if (BASE) {
  // Both ran in the same rounds: each round's ratio saw the same load.
  const paired = (of) => stats(results[GATEWAY].map((r, i) => of(r) / of(results[GATEWAY_BASE][i]))).median;
  console.log(
    `  this build / INDUSR_BASE build, initialize: CPU ${paired((r) => r.cpu).toFixed(2)}x, wall ${paired((r) => r.wall).toFixed(2)}x (median of per-round ratios)`,
  );
}

/** A gateway row: the bound, its ratio to the bare SDK server, and its own start (less node's). */
function verdictOf(name, wall, cpu) {
  if (!name.startsWith("gateway")) return "";
  const bare = { wall: median(BARE_SDK, (r) => r.wall), cpu: median(BARE_SDK, (r) => r.cpu) };
  return (
    `\n      ${wall <= BOUND_MS ? "within" : "OVER"} ${BOUND_MS} ms; ${(wall / bare.wall).toFixed(2)}x wall, ` +
    `${(cpu / bare.cpu).toFixed(2)}x CPU the bare SDK server; own start past node's: ` +
    `${ms(wall - nodeStart.wall)} wall, ${ms(cpu - nodeStart.cpu)} CPU`
  );
}
