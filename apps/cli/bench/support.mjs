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
