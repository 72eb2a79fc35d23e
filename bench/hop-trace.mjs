// Loaded into a stdio gateway with `node --import bench/hop-trace.mjs ...`
// (bench/stdio-gateway.mjs does so under BENCH_TRACE=1): times the gateway's
// own part of each sequential call, from the socket reads and writes, with no
// change to the gateway: T1 from reading a client's line to writing upstream,
// T2 from reading the upstream's line to writing the client. Everything else
// in a hop is pipes and scheduling (a line relay's T1 and T2 are ~13 us).
// Writes the p50s to $HOP_TRACE_FILE when the process exits.
import { writeFileSync } from "node:fs";
import net from "node:net";
import { performance } from "node:perf_hooks";

const out = process.env.HOP_TRACE_FILE;
const t1 = [];
const t2 = [];
let readClientAt = 0;
let readUpstreamAt = 0;

const push = net.Socket.prototype.push;
net.Socket.prototype.push = function (chunk, encoding) {
  if (chunk != null) {
    if (this === process.stdin) readClientAt = performance.now();
    else readUpstreamAt = performance.now();
  }
  return push.call(this, chunk, encoding);
};
const writeGeneric = net.Socket.prototype._writeGeneric;
net.Socket.prototype._writeGeneric = function (...args) {
  const now = performance.now();
  if (this === process.stdout) {
    if (readUpstreamAt) t2.push(now - readUpstreamAt);
    readUpstreamAt = 0;
  } else if (this !== process.stderr) {
    if (readClientAt) t1.push(now - readClientAt);
    readClientAt = 0;
  }
  return writeGeneric.apply(this, args);
};

const p50 = (samples) => [...samples].sort((a, b) => a - b)[samples.length >> 1] ?? NaN;
process.on("exit", () => {
  if (out) writeFileSync(out, JSON.stringify({ t1: p50(t1) * 1000, t2: p50(t2) * 1000, calls: t2.length }));
});
