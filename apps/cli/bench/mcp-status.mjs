// `indusr mcp status` vs `claude mcp list` (Claude Code, from npm) with the
// same three real servers, in the same run, rounds interleaved. Both connect
// every server; indusr also lists each server's tools (and pins them). Each
// prints wall time and CPU (user + sys of the command and the servers it
// reaped), and the per-round ratios: bounds 1.0x wall, 0.8x CPU. Both sides'
// CPU holds the three servers' start-up, the same on both: the floor row
// (servers-floor.mjs, the servers driven by a few lines of JSON over their
// pipes) measures it, with Node, in the same rounds; the ratio of what each
// command spends above that floor is printed too.
// Run: node bench/mcp-status.mjs  (CLAUDE_BIN=<native claude> to skip the npm install)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, QUICK, ensureBuilt, fmt, here, measureOnce, serverEntry, summary, tempDir } from "./support.mjs";

const CLAUDE_VERSION = "2.1.332";

ensureBuilt();
const work = tempDir("indusr-bench-status-");
const home = path.join(work, "home");
const project = path.join(work, "project");
fs.mkdirSync(home);
fs.mkdirSync(project);
const servers = {
  everything: { command: process.execPath, args: [serverEntry("server-everything"), "stdio"] },
  memory: {
    command: process.execPath,
    args: [serverEntry("server-memory")],
    env: { MEMORY_FILE_PATH: path.join(work, "memory.jsonl") },
  },
  fs: { command: process.execPath, args: [serverEntry("server-filesystem"), project] },
};
const indusConfig = path.join(work, "mcp.json");
fs.writeFileSync(indusConfig, JSON.stringify({ servers }));
fs.writeFileSync(
  path.join(home, ".claude.json"),
  JSON.stringify({
    mcpServers: Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, { type: "stdio", ...v }])),
  }),
);

/** Claude Code ships a native binary per platform; install it once into a cache folder. */
function claudeBinary() {
  if (process.env.CLAUDE_BIN) return { path: process.env.CLAUDE_BIN };
  const cache = path.join(os.tmpdir(), `indus-bench-claude-${CLAUDE_VERSION}`);
  const native = path.join(
    cache,
    "node_modules",
    "@anthropic-ai",
    `claude-code-${process.platform}-${process.arch}`,
    "claude",
  );
  if (!fs.existsSync(native)) {
    fs.mkdirSync(cache, { recursive: true });
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        cache,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@anthropic-ai/claude-code@${CLAUDE_VERSION}`,
      ],
      { encoding: "utf8" },
    );
    if (npm.status !== 0 || !fs.existsSync(native))
      return { error: (npm.stderr || "no native binary for this platform").trim().split("\n").pop() };
  }
  return { path: native };
}

const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" };
const commands = [
  {
    name: "indusr mcp status",
    argv: [process.execPath, BIN, "mcp", "status", "--mcp", indusConfig],
    options: { env, cwd: project },
  },
];
commands.push({
  name: "servers floor",
  argv: [process.execPath, path.join(here, "servers-floor.mjs"), indusConfig],
  options: { env, cwd: project },
});
const claude = claudeBinary();
if (claude.path)
  commands.push({ name: "claude mcp list", argv: [claude.path, "mcp", "list"], options: { env, cwd: project } });
else console.log(`claude mcp list: skipped (${claude.error})`);

const runs = QUICK ? 3 : 10;
const loadBefore = os.loadavg()[0].toFixed(1);
const results = pairedRuns(commands, runs);
console.log(
  `three stdio servers (server-everything, server-memory, server-filesystem), ${runs} interleaved rounds ` +
    `(load ${loadBefore} -> ${os.loadavg()[0].toFixed(1)}); CPU is user + sys with the servers it reaped`,
);
console.log(`  ${"".padEnd(20)} ${"wall median".padStart(12)} ${"wall p90".padStart(9)} ${"CPU median".padStart(11)}`);
for (const [name, runsOf] of results) {
  const wall = summary(runsOf.map((r) => r.ms));
  const cpu = runsOf.every((r) => r.cpu !== undefined) ? `${median(runsOf.map((r) => r.cpu)).toFixed(2)} s` : "n/a";
  console.log(`  ${name.padEnd(20)} ${fmt(wall.median).padStart(12)} ${fmt(wall.p90).padStart(9)} ${cpu.padStart(11)}`);
}
if (results.has("claude mcp list")) {
  const indusr = results.get("indusr mcp status");
  const claudeRuns = results.get("claude mcp list");
  // The median of the per-round ratios: both ran back to back, so each ratio saw the same load.
  const ratio = (of) => median(indusr.map((run, i) => of(run) / of(claudeRuns[i])));
  const wall = ratio((r) => r.ms);
  console.log(
    `  indusr / Claude Code ${CLAUDE_VERSION}, wall: ${wall.toFixed(2)}x (bound 1.0x) ${wall <= 1 ? "ok" : "OVER"}`,
  );
  if (indusr.every((r) => r.cpu !== undefined)) {
    const cpu = ratio((r) => r.cpu);
    console.log(
      `  indusr / Claude Code ${CLAUDE_VERSION}, CPU:  ${cpu.toFixed(2)}x (bound 0.8x) ${cpu <= 0.8 ? "ok" : "OVER"}`,
    );
    printFloor(indusr, claudeRuns, results.get("servers floor"));
  } else console.log("  CPU: not measured (needs /proc: Linux only)");
}
fs.rmSync(work, { recursive: true, force: true });

/** `runs` rounds of every command, one after the other, the order turned each round; one warm-up round first. */
function pairedRuns(list, rounds) {
  const samples = new Map(list.map((c) => [c.name, []]));
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 === 0 ? list : [...list].reverse();
    for (const command of order) {
      const run = measureOnce(command.argv, command.options);
      if (round >= 0) samples.get(command.name).push(run);
    }
  }
  return samples;
}

/**
 * What the floor says about the bound: the floor's own CPU ratio to Claude Code (the least any Node client that
 * starts these servers could score), and indusr's CPU above the floor against Claude Code's, per round.
 */
function printFloor(indusr, claudeRuns, floor) {
  const ratio = (a, of) => median(a.map((run, i) => of(run, i) / of(claudeRuns[i], i)));
  const least = ratio(floor, (r) => r.cpu);
  console.log(
    `  servers floor / Claude Code ${CLAUDE_VERSION}, CPU: ${least.toFixed(2)}x (the least a Node client scores)`,
  );
  const above = ratio(indusr, (r, i) => r.cpu - floor[i].cpu);
  console.log(`  above the floor, indusr / Claude Code, CPU: ${above.toFixed(2)}x`);
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
