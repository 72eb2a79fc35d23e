#!/usr/bin/env node
// Peak memory of `indusr call` for a large tool result: a scripted stdio
// server's `big` tool answers with N MB of text, and indusr prints it. The
// figure is indusr's own peak RSS (process.resourceUsage().maxRSS, read at
// exit through a preloaded module) divided by the payload; beside it, in the
// same run, the same call with a 1-byte result (indusr's base) so the payload's
// own cost per byte shows. Sizes alternate round by round. No streaming parse:
// the SDK reads each line whole, so about 3.6x is the floor of any Node client
// that parses it (the line as a string + the parsed text + the base).
//
//   pnpm build && node bench/large-result.mjs        (10 and 50 MB, 5 rounds)
//   BENCH_QUICK=1 node bench/large-result.mjs        (10 MB, 3 rounds; bench/ci.sh)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const QUICK = process.env.BENCH_QUICK === "1";
const INDUSR = join(root, "apps", "cli", "dist", "indusr.js");
const SCRIPTED = join(root, "packages", "testkit", "fixtures", "scripted-server.mjs");
const SIZES_MB = QUICK ? [10] : [10, 50];
const ROUNDS = QUICK ? 3 : 5;
/** The bound: peak RSS at most this many times the payload. */
const BOUND = 4;

if (!existsSync(INDUSR)) throw new Error(`build first: ${INDUSR} is missing (pnpm build)`);
const work = mkdtempSync(join(tmpdir(), "indus-large-result-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const config = join(work, "mcp.json");
writeFileSync(config, JSON.stringify({ servers: { s: { command: process.execPath, args: [SCRIPTED] } } }));
const probe = join(work, "peak.cjs");
writeFileSync(
  probe,
  `process.on("exit", () => require("node:fs").writeFileSync(process.env.PEAK_FILE, String(process.resourceUsage().maxRSS * 1024)));`,
);

/** indusr's peak RSS in bytes for one call returning `bytes` of text. */
function peakOf(bytes) {
  const peakFile = join(work, "peak");
  const call = spawnSync(
    process.execPath,
    ["--require", probe, INDUSR, "call", "s__big", JSON.stringify({ bytes }), "--mcp", config],
    { cwd: work, env: { PATH: process.env.PATH, HOME: work, NO_COLOR: "1", PEAK_FILE: peakFile }, maxBuffer: 2 ** 30 },
  );
  if (call.status !== 0 || call.stdout.length < bytes) throw new Error(`indusr call failed: ${call.stderr}`);
  return Number(readFileSync(peakFile, "utf8"));
}

const MB = 1e6;
for (const sizeMb of SIZES_MB) {
  const load = loadavg()[0].toFixed(1);
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    const pair = round % 2 === 0 ? [1, sizeMb * MB] : [sizeMb * MB, 1];
    const got = Object.fromEntries(pair.map((bytes) => [bytes, peakOf(bytes)]));
    rows.push({ base: got[1], peak: got[sizeMb * MB] });
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const ratio = median(rows.map((r) => r.peak / (sizeMb * MB)));
  const perByte = median(rows.map((r) => (r.peak - r.base) / (sizeMb * MB)));
  console.log(
    `${sizeMb} MB result: indusr call peak RSS ${(median(rows.map((r) => r.peak)) / MB).toFixed(0)} MB ` +
      `(base with a 1-byte result ${(median(rows.map((r) => r.base)) / MB).toFixed(0)} MB); ` +
      `peak / payload ${ratio.toFixed(2)}x (bound ${BOUND}x), ${perByte.toFixed(2)} bytes per payload byte; ` +
      `${ROUNDS} alternating rounds, load ${load} -> ${loadavg()[0].toFixed(1)}`,
  );
}
