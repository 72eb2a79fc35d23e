// Cold start: `indusr --version` and `indusr tools --no-tools` against
// `node -e 0` in the same run. Run: pnpm --filter indusr build && node bench/cold-start.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, QUICK, ensureBuilt, fmt, measureOnce, summary, tempDir } from "./support.mjs";

ensureBuilt();
const home = tempDir("indusr-bench-home-");
// Any ES module pays for Node's ESM loader; this separates that from indusr's own cost.
const emptyModule = path.join(home, "empty.mjs");
fs.writeFileSync(emptyModule, "");
const options = { env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" }, cwd: home };
const runs = QUICK ? 10 : 40;
const loadBefore = os.loadavg()[0].toFixed(1);
const commands = [
  { name: "node -e 0", argv: [process.execPath, "-e", "0"], options },
  { name: "node empty.mjs", argv: [process.execPath, emptyModule], options },
  { name: "indusr --version", argv: [process.execPath, BIN, "--version"], options },
  // The installed command (package.json `bin`): the CommonJS build of the same entry.
  { name: "indusr.cjs --version", argv: [process.execPath, BIN.replace(/\.js$/, ".cjs"), "--version"], options },
  { name: "indusr --help", argv: [process.execPath, BIN, "--help"], options },
  { name: "indusr tools --no-tools", argv: [process.execPath, BIN, "tools", "--no-tools"], options },
];
const results = roundsOf(commands, runs);
const base = results.get("node -e 0");
console.log(
  `cold start, ${runs} interleaved rounds (wall median, p90, ratio to node -e 0's median; CPU is user + sys summed ` +
    `over the rounds, ratio to node -e 0's sum: the clock tick is 10 ms; load ${loadBefore} -> ${os.loadavg()[0].toFixed(1)})`,
);
for (const [name, samples] of results) {
  const wall = summary(samples.map((r) => r.ms));
  const cpu = cpuSum(samples);
  const cpuRatio =
    cpu === undefined ? "" : `   CPU ${fmt((cpu / runs) * 1000).padStart(8)} ${(cpu / cpuSum(base)).toFixed(2)}x`;
  const wallRatio = (wall.median / summary(base.map((r) => r.ms)).median).toFixed(2);
  console.log(
    `  ${name.padEnd(26)} ${fmt(wall.median).padStart(9)} ${fmt(wall.p90).padStart(9)}   ${wallRatio}x${cpuRatio}`,
  );
}
const installed = cpuSum(results.get("indusr.cjs --version"));
if (installed !== undefined) {
  const ratio = installed / cpuSum(base);
  console.log(
    `  installed --version / node -e 0, CPU: ${ratio.toFixed(2)}x (bound 1.15x) ${ratio <= 1.15 ? "ok" : "OVER"}`,
  );
}

/** Every command once a round, in turn (two warm-up rounds first): wall and CPU of each run. */
function roundsOf(list, rounds, warmup = 2) {
  const samples = new Map(list.map((c) => [c.name, []]));
  for (let round = -warmup; round < rounds; round++) {
    for (const command of list) {
      const run = measureOnce(command.argv, command.options);
      if (round >= 0) samples.get(command.name).push(run);
    }
  }
  return samples;
}

/** CPU seconds of all runs together (ticks of 10 ms average out over the rounds); undefined off Linux. */
function cpuSum(samples) {
  return samples.every((r) => r.cpu !== undefined) ? samples.reduce((sum, r) => sum + r.cpu, 0) : undefined;
}
