// What the stdio hop benches share: a v2 client per path (a process it
// spawns), sequential echo calls timed in interleaved blocks (load on a shared
// machine hits every path alike), the CPU the spawned process spent per call
// (/proc, Linux) and the CPU the bench's own client spent on it, and the p50/p99 table. Used by bench/stdio-hop.mjs here and
// by the repository's bench/stdio-gateway.mjs (the real gateway).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const BLOCK = 10;

/**
 * One path: a client connected to `node <args>` in the era asked for.
 * `spawn` adds to the transport's options (cwd, env).
 */
export async function connectPath(name, args, era, spawn = {}) {
  const client = new Client(
    { name: "stdio-hop-bench", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore", ...spawn });
  await client.connect(transport);
  if (era === "modern" && client.getProtocolEra() !== "modern") throw new Error(`${name}: no 2026-07-28 session`);
  return { name, client, pid: transport.pid, samples: [], cpu: 0, clientCpu: 0 };
}

/** CPU time (user + system, ms) a process has used, or undefined off Linux. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function call(client, n) {
  const started = performance.now();
  const result = await client.request({
    method: "tools/call",
    params: { name: "echo", arguments: { message: `m${n}` } },
  });
  const elapsed = performance.now() - started;
  if (result.content?.[0]?.text !== `Echo: m${n}`) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  return elapsed;
}

/**
 * Warms every path up, then times `blocks` blocks of sequential calls per path,
 * taking turns in a new order each round (shuffled, the same every run): a
 * path's block runs faster or slower by which processes ran just before it (in
 * one fixed order one build read 0.91x another's p50 in one run and 1.08x in
 * the next), so no path always follows the same one.
 */
export async function measurePaths(paths, { blocks, warmup }) {
  for (const each of paths) for (let n = 0; n < warmup; n++) await call(each.client, n);
  const random = seeded(0x1d05);
  for (let block = 0; block < blocks; block++) {
    for (const each of shuffled(paths, random)) {
      const before = cpuMs(each.pid);
      const own = process.cpuUsage();
      for (let n = 0; n < BLOCK; n++) each.samples.push(await call(each.client, n));
      const ownSpent = process.cpuUsage(own);
      each.clientCpu += (ownSpent.user + ownSpent.system) / 1000;
      const after = cpuMs(each.pid);
      if (before !== undefined && after !== undefined) each.cpu += after - before;
    }
  }
}

/** A small seeded generator (mulberry32): the same orders every run. */
function seeded(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `items` in a random order (Fisher-Yates). */
function shuffled(items, random) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Prints a row per path and returns each path's p50 (ms) by name. */
export function printPaths(paths) {
  const p50 = {};
  console.log(
    "path                              p50 ms   p99 ms   CPU us/call: the process spawned, the bench's client",
  );
  for (const each of paths) {
    const sorted = [...each.samples].sort((a, b) => a - b);
    p50[each.name] = percentile(sorted, 50);
    const cpu = ((each.cpu * 1000) / each.samples.length).toFixed(0);
    const clientCpu = ((each.clientCpu * 1000) / each.samples.length).toFixed(0);
    const p99 = percentile(sorted, 99);
    console.log(
      `${each.name.padEnd(32)} ${p50[each.name].toFixed(3).padStart(7)}  ${p99.toFixed(3).padStart(7)}  ${cpu.padStart(6)}  ${clientCpu.padStart(6)}`,
    );
  }
  return p50;
}
