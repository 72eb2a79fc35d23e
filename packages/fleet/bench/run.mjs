#!/usr/bin/env node
/**
 * Benchmarks of @indus/fleet against a bare v2 SDK `Client` (the one the
 * endpoint wraps, in its default 2025 era), measured in the same
 * run so the ratios hold on whatever machine runs them:
 *
 *   latency     server-everything `echo` over stdio, one call at a time: p50/p99
 *               through mountProtocolBridge's runner vs a bare Client.callTool
 *   throughput  1,000 `echo` calls in flight at once: calls/s, same comparison
 *   mount       time to mount N server-everything servers (parallel connects)
 *               vs connecting N bare clients one after another
 *   cycles      mount/tear-down cycles of two small servers: child processes
 *               and memory before and after (no growth expected)
 *
 * Run after a build: `pnpm --filter @indus/fleet build && pnpm --filter @indus/fleet bench`
 * (or `pnpm turbo run bench --filter @indus/fleet`). BENCH_QUICK=1 runs a
 * reduced version (well under a minute). Needs `--expose-gc` (the bench script passes it).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mountProtocolBridge } from "../dist/index.js";

const QUICK = process.env.BENCH_QUICK === "1";
const here = path.dirname(fileURLToPath(import.meta.url));
const endpointRoot = path.join(here, "..", "..", "endpoint");
const EVERYTHING = path.join(
  endpointRoot,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);
// The shared test servers live in the private @indus/testkit package.
const TINY = path.join(here, "..", "..", "testkit", "fixtures", "tiny-server.mjs");

const everything = (id) => ({
  transport: "stdio",
  id,
  command: process.execPath,
  args: [EVERYTHING, "stdio"],
  env: {},
});
const tiny = (id) => ({ transport: "stdio", id, command: process.execPath, args: [TINY, id], env: {} });

async function bareClient() {
  const client = new Client({ name: "bare-bench", version: "0.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [EVERYTHING, "stdio"],
    stderr: "pipe",
  });
  transport.stderr?.resume();
  await client.connect(transport);
  await client.listTools();
  return client;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n, digits = 3) => n.toFixed(digits);

function report(title, rows) {
  console.log(`\n## ${title}`);
  for (const row of rows) console.log(row);
}

/**
 * Per-call latency. Two identical server processes can differ by 30% on a busy
 * 2-core machine (which core, which scheduling group), so each side gets
 * several fresh server processes and calls alternate one by one.
 */
async function latency() {
  const pairs = QUICK ? 3 : 6;
  const perPair = QUICK ? 300 : 1_000;
  const bare = [];
  const mounted = [];
  for (let pair = 0; pair < pairs; pair += 1) {
    const client = await bareClient();
    const { box, fleet } = await mountProtocolBridge({ servers: [everything("everything")] });
    try {
      // Warm both paths (JIT, pipes) before measuring.
      for (let i = 0; i < 200; i += 1) {
        await client.callTool({ name: "echo", arguments: { message: "warm" } });
        await box.runner.run({ id: "w", name: "everything__echo", input: { message: "warm" } });
      }
      for (let i = 0; i < perPair; i += 1) {
        for (const side of i % 2 === 0 ? ["bare", "box"] : ["box", "bare"]) {
          const t0 = performance.now();
          if (side === "bare") {
            await client.callTool({ name: "echo", arguments: { message: "ping" } });
            bare.push(performance.now() - t0);
          } else {
            const outcome = await box.runner.run({
              id: String(i),
              name: "everything__echo",
              input: { message: "ping" },
            });
            mounted.push(performance.now() - t0);
            if (outcome.isError) throw new Error("echo failed through the box");
          }
        }
      }
    } finally {
      await client.close();
      await fleet.tearDown();
    }
  }
  bare.sort((a, b) => a - b);
  mounted.sort((a, b) => a - b);
  const p = (xs, q) => percentile(xs, q);
  report(`latency: server-everything echo over stdio, ${bare.length} calls each over ${pairs} fresh server pairs`, [
    `bare SDK Client   p50 ${fmt(p(bare, 50))} ms   p99 ${fmt(p(bare, 99))} ms`,
    `mounted box       p50 ${fmt(p(mounted, 50))} ms   p99 ${fmt(p(mounted, 99))} ms`,
    `ratio (box/bare)  p50 ${fmt(p(mounted, 50) / p(bare, 50), 2)}x   p99 ${fmt(p(mounted, 99) / p(bare, 99), 2)}x   (target p50 <= 1.10)`,
  ]);
}

/**
 * Throughput with 1,000 calls in flight. Load on a shared machine drifts
 * between rounds and two server processes differ, so each side gets several
 * fresh servers, rounds alternate sides, and the ratio is taken per pair of
 * back-to-back rounds; the median of those ratios is reported.
 */
async function throughput() {
  const inFlight = 1_000;
  const pairs = QUICK ? 2 : 4;
  const roundsPerPair = QUICK ? 4 : 6;
  const bareRates = [];
  const boxRates = [];
  const ratios = [];
  for (let pair = 0; pair < pairs; pair += 1) {
    const client = await bareClient();
    const { box, fleet } = await mountProtocolBridge({ servers: [everything("everything")] });
    const bareRound = async () => {
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, (_, i) =>
          client.callTool({ name: "echo", arguments: { message: String(i) } }),
        ),
      );
      return inFlight / ((performance.now() - t0) / 1000);
    };
    const boxRound = async () => {
      const t0 = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: inFlight }, (_, i) =>
          box.runner.run({ id: String(i), name: "everything__echo", input: { message: String(i) } }),
        ),
      );
      const rate = inFlight / ((performance.now() - t0) / 1000);
      if (outcomes.some((outcome) => outcome.isError)) throw new Error("echo failed through the box");
      return rate;
    };
    try {
      await bareRound(); // warm-up
      await boxRound();
      for (let round = 0; round < roundsPerPair; round += 1) {
        let bareRate;
        let boxRate;
        if (round % 2 === 0) {
          bareRate = await bareRound();
          boxRate = await boxRound();
        } else {
          boxRate = await boxRound();
          bareRate = await bareRound();
        }
        bareRates.push(bareRate);
        boxRates.push(boxRate);
        ratios.push(boxRate / bareRate);
      }
    } finally {
      await client.close();
      await fleet.tearDown();
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  report(
    `throughput: ${inFlight} echo calls in flight, ${pairs * roundsPerPair} paired rounds over ${pairs} fresh server pairs`,
    [
      `bare SDK Client   median ${fmt(median(bareRates), 0)} calls/s`,
      `mounted box       median ${fmt(median(boxRates), 0)} calls/s`,
      `ratio (box/bare)  median of paired rounds ${fmt(median(ratios), 2)}x   (target >= 0.9)`,
    ],
  );
}

/**
 * Mount time vs connecting bare clients one after another. Small N are
 * repeated (alternating which goes first) and the medians reported, since a
 * single server start varies a lot on a busy machine.
 */
async function mountTime() {
  const sizes = QUICK ? [1, 5] : [1, 5, 10, 20];
  const repeats = (n) => (n === 1 ? 5 : n === 5 ? (QUICK ? 1 : 3) : 1);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = [];
  for (const n of sizes) {
    const sequentialTimes = [];
    const parallelTimes = [];
    let ready = 0;
    let tools = 0;
    const sequential = async () => {
      const t0 = performance.now();
      const clients = [];
      for (let i = 0; i < n; i += 1) clients.push(await bareClient());
      sequentialTimes.push(performance.now() - t0);
      await Promise.all(clients.map((client) => client.close()));
    };
    const parallel = async () => {
      const t0 = performance.now();
      const { box, fleet } = await mountProtocolBridge({
        servers: Array.from({ length: n }, (_, i) => everything(`e${i}`)),
      });
      parallelTimes.push(performance.now() - t0);
      ready = [...fleet.status().values()].filter((s) => s.phase === "ready").length;
      tools = box.descriptors().length;
      await fleet.tearDown();
    };
    for (let r = 0; r < repeats(n); r += 1) {
      if (r % 2 === 0) {
        await sequential();
        await parallel();
      } else {
        await parallel();
        await sequential();
      }
    }
    const seq = median(sequentialTimes);
    const par = median(parallelTimes);
    rows.push(
      `N=${String(n).padStart(2)}  sequential bare connects ${fmt(seq, 0).padStart(6)} ms   mountProtocolBridge ${fmt(par, 0).padStart(6)} ms   speed-up ${fmt(seq / par, 2)}x   (${ready}/${n} ready, ${tools} tools${repeats(n) > 1 ? `, median of ${repeats(n)}` : ""})`,
    );
  }
  report("mount time: N server-everything servers over stdio (spawn + initialize + tools/list)", rows);
}

function myChildren() {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,stat="], { encoding: "utf8" });
  const rows = out
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, stat]) => ({ pid: Number(pid), ppid: Number(ppid), stat }));
  const mine = [];
  const frontier = [process.pid];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const row of rows) {
      if (row.ppid === parent && row.pid !== undefined) {
        mine.push(row);
        frontier.push(row.pid);
      }
    }
  }
  return mine.filter((row) => !row.stat.startsWith("Z") && row.pid !== undefined);
}

async function cycles() {
  const total = QUICK ? 40 : 200;
  const warmup = QUICK ? 5 : 20;
  const config = { servers: [tiny("t1"), tiny("t2")] };
  const snapshot = () => {
    globalThis.gc?.();
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    return { heapUsed, rss, children: myChildren().filter((row) => row.stat !== undefined).length };
  };
  for (let i = 0; i < warmup; i += 1) {
    const { fleet } = await mountProtocolBridge(config);
    await fleet.tearDown();
  }
  const before = snapshot();
  const t0 = performance.now();
  for (let i = 0; i < total; i += 1) {
    const { box, fleet } = await mountProtocolBridge(config);
    const outcome = await box.runner.run({ id: "c", name: "t1__echo", input: { message: "cycle" } });
    if (outcome.isError) throw new Error("cycle call failed");
    await fleet.tearDown();
  }
  const elapsed = performance.now() - t0;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = snapshot();
  const mb = (bytes) => `${fmt(bytes / 1024 / 1024, 1)} MB`;
  report(`cycles: ${total} mount/call/tear-down cycles of 2 servers (after ${warmup} warm-up cycles)`, [
    `child processes   before ${before.children}   after ${after.children}   (counts \`ps\` itself)`,
    `heap used         before ${mb(before.heapUsed)}   after ${mb(after.heapUsed)}   growth ${mb(after.heapUsed - before.heapUsed)}`,
    `rss               before ${mb(before.rss)}   after ${mb(after.rss)}`,
    `time per cycle    ${fmt(elapsed / total, 1)} ms`,
  ]);
  if (after.children > before.children) {
    console.error("FAIL: child processes survived tear-down");
    process.exitCode = 1;
  }
}

async function main() {
  console.log(
    `# @indus/fleet bench${QUICK ? " (BENCH_QUICK=1)" : ""}: node ${process.version}, ${process.platform}/${process.arch}`,
  );
  await latency();
  await throughput();
  await mountTime();
  await cycles();
}

await main();
