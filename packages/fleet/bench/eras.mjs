#!/usr/bin/env node
/**
 * Both MCP eras through the fleet's tool box against a bare v2 SDK `Client`,
 * on one server that speaks both (the v2 fixture under `serveStdio`, legacy
 * served), measured in the same run so the ratios hold on any machine:
 *
 *   latency      echo over stdio, one call at a time, calls alternating between
 *                the box and a bare `Client.callTool`: p50 ratio (target <= 1.10)
 *   throughput   1,000 echo calls in flight, rounds alternating: median ratio
 *                of calls/s (target >= 0.90)
 *   eras         the box's modern p50 over its legacy p50 on the same server
 *   connect      open() of a stdio server in `protocol: "auto"` with its verdict
 *                remembered vs `protocol: "legacy"` (target <= 1.10)
 *
 * Run after a build (`pnpm turbo run build --filter @indus/fleet`);
 * BENCH_QUICK=1 runs a reduced version.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { memoryEraVerdictStore } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { mountProtocolBridge } from "../dist/index.js";

const QUICK = process.env.BENCH_QUICK === "1";
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, "..", "..", "testkit", "fixtures");
const BOTH = [path.join(FIXTURES, "modern-server.mjs"), "legacy=serve"];
const TINY = [path.join(FIXTURES, "tiny-server.mjs"), "bench"];
const ERAS = ["legacy", "2026-07-28"];

const p = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))];
const median = (xs) =>
  p(
    [...xs].sort((a, b) => a - b),
    50,
  );
const fmt = (n, digits = 3) => n.toFixed(digits);

async function bareClient(era) {
  const client = new Client(
    { name: "bare-bench", version: "0.0.0" },
    era === "legacy" ? {} : { versionNegotiation: { mode: { pin: era } } },
  );
  const transport = new StdioClientTransport({ command: process.execPath, args: BOTH, stderr: "pipe" });
  transport.stderr?.resume();
  await client.connect(transport);
  await client.listTools();
  return client;
}

async function mountBox(era) {
  const { box, fleet } = await mountProtocolBridge({
    servers: [{ transport: "stdio", id: "both", command: process.execPath, args: BOTH, env: {}, protocol: era }],
  });
  return { box, fleet };
}

const echo = (client, message) => client.callTool({ name: "echo", arguments: { message } });
async function viaBox(box, id, message) {
  const outcome = await box.runner.run({ id, name: "both__echo", input: { message } });
  if (outcome.isError) throw new Error(`echo failed through the box: ${JSON.stringify(outcome)}`);
}

async function latency(era) {
  const rounds = QUICK ? 2 : 4;
  const perRound = QUICK ? 300 : 1_000;
  const bare = [];
  const boxed = [];
  for (let round = 0; round < rounds; round += 1) {
    const client = await bareClient(era);
    const { box, fleet } = await mountBox(era);
    try {
      for (let i = 0; i < 200; i += 1) {
        await echo(client, "warm");
        await viaBox(box, "w", "warm");
      }
      for (let i = 0; i < perRound; i += 1) {
        for (const side of i % 2 === 0 ? ["bare", "box"] : ["box", "bare"]) {
          const t0 = performance.now();
          if (side === "bare") {
            await echo(client, "ping");
            bare.push(performance.now() - t0);
          } else {
            await viaBox(box, String(i), "ping");
            boxed.push(performance.now() - t0);
          }
        }
      }
    } finally {
      await client.close();
      await fleet.tearDown();
    }
  }
  bare.sort((a, b) => a - b);
  boxed.sort((a, b) => a - b);
  return { bare, boxed };
}

async function throughput(era) {
  const inFlight = 1_000;
  const rounds = QUICK ? 4 : 8;
  const ratios = [];
  const client = await bareClient(era);
  const { box, fleet } = await mountBox(era);
  const timed = async (one) => {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: inFlight }, (_, i) => one(i)));
    return inFlight / ((performance.now() - t0) / 1000);
  };
  const bareRound = () => timed((i) => echo(client, String(i)));
  const boxRound = () => timed((i) => viaBox(box, String(i), String(i)));
  try {
    await bareRound();
    await boxRound();
    for (let round = 0; round < rounds; round += 1) {
      const [first, second] = round % 2 === 0 ? [bareRound, boxRound] : [boxRound, bareRound];
      const a = await first();
      const b = await second();
      ratios.push(round % 2 === 0 ? b / a : a / b);
    }
  } finally {
    await client.close();
    await fleet.tearDown();
  }
  return median(ratios);
}

/** open() times of one stdio server, alternating the two protocol settings. */
async function connectTimes() {
  const runs = QUICK ? 12 : 30;
  const store = memoryEraVerdictStore();
  const config = (protocol) => ({
    transport: "stdio",
    id: "tiny",
    command: process.execPath,
    args: TINY,
    env: {},
    protocol,
  });
  const openOnce = async (protocol) => {
    const endpoint = createServerEndpoint(config(protocol), undefined, { eraVerdicts: store, closeGraceMs: 200 });
    const t0 = performance.now();
    await endpoint.open();
    const ms = performance.now() - t0;
    await endpoint.close();
    return ms;
  };
  const first = await openOnce("auto"); // negotiates and remembers the verdict
  const auto = [];
  const legacy = [];
  for (let i = 0; i < runs; i += 1) {
    for (const protocol of i % 2 === 0 ? ["auto", "legacy"] : ["legacy", "auto"]) {
      (protocol === "auto" ? auto : legacy).push(await openOnce(protocol));
    }
  }
  return { first, auto: median(auto), legacy: median(legacy) };
}

const results = {};
for (const era of ERAS) {
  const { bare, boxed } = await latency(era);
  const ratio = await throughput(era);
  results[era] = { bare, boxed, ratio };
  console.log(`\n## era ${era}: echo over stdio (${bare.length} calls each)`);
  console.log(`bare v2 Client.callTool  p50 ${fmt(p(bare, 50))} ms   p99 ${fmt(p(bare, 99))} ms`);
  console.log(`box                      p50 ${fmt(p(boxed, 50))} ms   p99 ${fmt(p(boxed, 99))} ms`);
  console.log(`ratio (box/bare)         p50 ${fmt(p(boxed, 50) / p(bare, 50), 2)}x   (target <= 1.10)`);
  console.log(`throughput, 1,000 in flight: box/bare calls/s median ratio ${fmt(ratio, 2)}x   (target >= 0.90)`);
}
const modern = results["2026-07-28"];
const legacy = results.legacy;
console.log(`\n## eras on the same server`);
console.log(
  `box modern/legacy p50 ${fmt(p(modern.boxed, 50) / p(legacy.boxed, 50), 2)}x   bare modern/legacy p50 ${fmt(p(modern.bare, 50) / p(legacy.bare, 50), 2)}x`,
);
const connect = await connectTimes();
console.log(`\n## connect (tiny legacy server over stdio, median)`);
console.log(`first auto connect (negotiates) ${fmt(connect.first, 1)} ms`);
console.log(`auto with remembered verdict ${fmt(connect.auto, 1)} ms   legacy ${fmt(connect.legacy, 1)} ms`);
console.log(`ratio (auto/legacy) ${fmt(connect.auto / connect.legacy, 2)}x   (target <= 1.10)`);
