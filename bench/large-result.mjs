#!/usr/bin/env node
// Peak memory of indusr with a large tool result: a scripted stdio server's
// `big` tool answers with N MB of text, through `indusr call` (which prints
// it) and through `indusr mcp serve` (a raw stdio client calls it; the gateway
// relays it). The figure is indusr's own peak RSS (VmHWM from /proc, Linux;
// read at exit through a preloaded module) divided by the payload; beside it,
// in the same run, the same call with a 1-byte result (indusr's base), so the
// payload's own cost per byte shows: (peak - base) / payload. Sizes and paths
// alternate round by round.
//
// Streaming parse of long strings: a line over 1 MiB is scanned as its bytes
// arrive (the endpoint's stdio transport); a string in it over 64 KiB (the
// result's text) is decoded and unescaped chunk by chunk, and only the rest of
// the line is JSON.parse'd at its newline, so the line never exists as one
// string (docs/decisions/decode-long-lines.md). The floor is about base + 2
// bytes per payload byte (the text's ~1 MiB groups and the joined text, for a
// moment), plus whatever garbage the GC has not collected yet.
//
//   pnpm build && node bench/large-result.mjs        (10 and 50 MB, call and gateway, 5 rounds)
//   BENCH_QUICK=1 node bench/large-result.mjs        (10 MB, 3 rounds; bench/ci.sh)
//   BENCH_SIZES=50 BENCH_PATHS=gateway: one size or one path only.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const SCRIPTED = join(root, "packages", "testkit", "fixtures", "scripted-server.mjs");
const SIZES_MB = process.env.BENCH_SIZES?.split(",").map(Number) ?? (QUICK ? [10] : [10, 50]);
const PATHS = process.env.BENCH_PATHS?.split(",") ?? ["call", "gateway"];
const ROUNDS = QUICK ? 3 : 5;
/** The bound: peak RSS at most this many times the payload. */
const BOUND = 4;
const MB = 1e6;

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
const work = mkdtempSync(join(tmpdir(), "indus-large-result-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const config = join(work, "mcp.json");
writeFileSync(config, JSON.stringify({ servers: { s: { command: process.execPath, args: [SCRIPTED] } } }));
const probe = join(work, "peak.cjs");
// VmHWM, not resourceUsage().maxRSS: Linux carries maxRSS over fork+exec, so a
// child's figure would start at the bench's own RSS when it was spawned.
writeFileSync(
  probe,
  `process.on("exit", () => {
    const fs = require("node:fs");
    let peak = process.resourceUsage().maxRSS * 1024;
    try { peak = Number(/VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]) * 1024; } catch {}
    fs.writeFileSync(process.env.PEAK_FILE, String(peak));
  });`,
);
const peakFile = join(work, "peak");
const env = { PATH: process.env.PATH, HOME: work, NO_COLOR: "1", PEAK_FILE: peakFile };

/** indusr call's peak RSS in bytes for one call returning `bytes` of text. */
function callPeak(bytes) {
  rmSync(peakFile, { force: true });
  const call = spawnSync(
    process.execPath,
    ["--require", probe, INDUSR, "call", "s__big", JSON.stringify({ bytes }), "--mcp", config],
    { cwd: work, env, maxBuffer: 2 ** 30 },
  );
  if (call.status !== 0 || call.stdout.length < bytes) throw new Error(`indusr call failed: ${call.stderr}`);
  return Number(readFileSync(peakFile, "utf8"));
}

const GATEWAY = [
  INDUSR,
  "mcp",
  "serve",
  "--names",
  "as-is",
  "--no-builtins",
  "--profile",
  "survey",
  "--mcp",
  config,
  "--boot-wait",
  "120000",
];
const lines = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "large-result-bench", version: "1" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/** The gateway's peak RSS in bytes for one call through it returning `bytes` of text. */
async function gatewayPeak(bytes) {
  rmSync(peakFile, { force: true });
  const gateway = spawn(process.execPath, ["--require", probe, ...GATEWAY], {
    cwd: work,
    env,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const exited = new Promise((resolve) => gateway.once("exit", resolve));
  const answer = await callThrough(gateway, bytes);
  gateway.stdin.end();
  await exited;
  if (answer.length < bytes)
    throw new Error(`gateway call answered ${answer.length} bytes, asked ${bytes}: ${answer.subarray(0, 300)}`);
  return Number(readFileSync(peakFile, "utf8"));
}

/** Initializes, calls `big` and returns its answer's line (the raw bytes are counted, not parsed). */
function callThrough(gateway, bytes) {
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "big", arguments: { bytes } } };
  return new Promise((resolve, reject) => {
    const chunks = [];
    let lineNo = 0;
    gateway.stdout.on("data", (chunk) => {
      let newline = chunk.indexOf(10);
      chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
      while (newline !== -1) {
        lineNo += 1;
        if (lineNo === 1) gateway.stdin.write(`${JSON.stringify(lines[1])}\n${JSON.stringify(call)}\n`);
        else if (lineNo === 2) return resolve(Buffer.concat(chunks));
        chunks.length = 0;
        const next = chunk.indexOf(10, newline + 1);
        chunks.push(chunk.subarray(newline + 1, next === -1 ? chunk.length : next));
        newline = next;
      }
    });
    gateway.once("exit", (code) => reject(new Error(`gateway exited (${code}) before answering`)));
    gateway.stdin.write(`${JSON.stringify(lines[0])}\n`);
  });
}

const measures = { call: callPeak, gateway: gatewayPeak };
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

console.log(
  "streaming parse of long strings (lines past 1 MiB scanned as they arrive, strings over 64 KiB decoded apart, the rest JSON.parse'd); peak RSS of the indusr process, median of alternating rounds",
);
for (const sizeMb of SIZES_MB) {
  const payload = sizeMb * MB;
  for (const name of PATHS) {
    const load = loadavg()[0].toFixed(1);
    const rows = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pair = round % 2 === 0 ? [1, payload] : [payload, 1];
      const got = {};
      for (const bytes of pair) got[bytes] = await measures[name](bytes);
      rows.push({ base: got[1], peak: got[payload] });
    }
    const ratios = rows.map((r) => r.peak / payload);
    console.log(
      `${sizeMb} MB result, ${name === "call" ? "indusr call" : "gateway call (mcp serve)"}: peak RSS ${(median(rows.map((r) => r.peak)) / MB).toFixed(0)} MB ` +
        `(base with a 1-byte result ${(median(rows.map((r) => r.base)) / MB).toFixed(0)} MB); ` +
        `peak / payload ${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; bound ${BOUND}x), ` +
        `growth ${median(rows.map((r) => (r.peak - r.base) / payload)).toFixed(2)} bytes per payload byte; ` +
        `${ROUNDS} rounds, load ${load} -> ${loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `  rounds, base/peak MB: ${rows.map((r) => `${(r.base / MB).toFixed(0)}/${(r.peak / MB).toFixed(0)}`).join(" ")}`,
    );
  }
}
