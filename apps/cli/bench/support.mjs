// Shared bench plumbing: timing whole commands, and the three real servers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const here = path.dirname(fileURLToPath(import.meta.url));
export const app = path.join(here, "..");
export const BIN = path.join(app, "dist", "indusr.js");
export const QUICK = process.env.BENCH_QUICK === "1";

export function ensureBuilt() {
  if (!fs.existsSync(BIN)) throw new Error(`build first: ${BIN} is missing (pnpm --filter indusr build)`);
}

/** Milliseconds of one run of `argv`; throws when it fails. */
export function timeOnce(argv, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== (options.expectStatus ?? 0)) {
    throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr || result.stdout}`);
  }
  return ms;
}

/**
 * CPU seconds (user + sys) this process's reaped children used so far, from
 * /proc/self/stat (cutime + cstime): a child's own children count once it
 * waited for them, so a command's servers are in its figure. Undefined off
 * Linux. Resolution: one clock tick (10 ms).
 */
export function childCpuSeconds() {
  if (process.platform !== "linux") return undefined;
  // Fields after the ")" that ends the command name: cutime and cstime are the 16th and 17th of the line.
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Wall milliseconds and CPU seconds (user + sys, with every process it reaped) of one run of `argv`. */
export function measureOnce(argv, options = {}) {
  const cpuBefore = childCpuSeconds();
  const ms = timeOnce(argv, options);
  const cpuAfter = childCpuSeconds();
  return { ms, cpu: cpuBefore === undefined ? undefined : cpuAfter - cpuBefore };
}

/** Runs each command in turn, `runs` rounds (interleaved so load drift hits all alike). */
export function timeInterleaved(commands, runs, warmup = 2) {
  const samples = new Map(commands.map((c) => [c.name, []]));
  for (let round = -warmup; round < runs; round++) {
    for (const command of commands) {
      const ms = timeOnce(command.argv, command.options);
      if (round >= 0) samples.get(command.name).push(ms);
    }
  }
  return new Map([...samples].map(([name, list]) => [name, summary(list)]));
}

export function summary(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, median: at(0.5), p90: at(0.9), min: sorted[0] };
}

export const fmt = (ms) => `${ms.toFixed(ms < 100 ? 1 : 0)} ms`;

export function serverEntry(pkg) {
  return path.join(app, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
