#!/usr/bin/env node
/**
 * Per-call cost of the deck's tool box with N tools grafted from a live
 * source (a gateway looks a tool up on every call): a source that keeps
 * revisions (the mounted-server bridge does) against the same source without
 * them (every call re-reads every tool: how the box worked before revisions),
 * in the same run. Prints microseconds per call and the ratio.
 *
 *   pnpm build && node bench/box-call.bench.mjs
 *   BENCH_QUICK=1 node bench/box-call.bench.mjs
 */
import { performance } from "node:perf_hooks";
import os from "node:os";
import { deckContext, defineCard, provisionDeck } from "../dist/index.js";

const QUICK = process.env.BENCH_QUICK === "1";
const CALLS = QUICK ? 5_000 : 50_000;
const ROUNDS = QUICK ? 3 : 7;

function card(name) {
  return defineCard({
    name,
    label: name,
    description: `tool ${name}`,
    parameters: { type: "object" },
    readOnly: true,
    run: async () => ({ content: [{ type: "text", text: name }] }),
  });
}

/** A live source of `caps`; `revisions` says whether it keeps a revision. */
function source(caps, revisions) {
  const live = { capabilities: () => caps, onChanged: () => () => undefined };
  return revisions ? { ...live, revision: () => 1 } : live;
}

async function perCall(box, name) {
  const started = performance.now();
  for (let n = 0; n < CALLS; n++) await box.runner.run({ id: `${n}`, name, input: {} });
  return ((performance.now() - started) * 1000) / CALLS;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const cwd = os.tmpdir();
console.log(`deck box, ${CALLS} sequential calls per round, median of ${ROUNDS} interleaved rounds`);
console.log("tools   with revisions us/call   re-read per call us/call   ratio (re-read / revisions)");
for (const count of [13, 300, 1000]) {
  const caps = Array.from({ length: count }, (_, i) => card(`srv__tool_${i}`));
  const deck = (revisions) =>
    provisionDeck("all", deckContext(cwd))
      .retain(() => false)
      .graft(source(caps, revisions))
      .intoToolBox();
  const kept = deck(true);
  const reread = deck(false);
  const target = caps[Math.floor(count / 2)].name;
  await perCall(kept, target); // warm-up, both paths
  await perCall(reread, target);
  const a = [];
  const b = [];
  for (let round = 0; round < ROUNDS; round++) {
    a.push(await perCall(kept, target));
    b.push(await perCall(reread, target));
  }
  const [x, y] = [median(a), median(b)];
  console.log(
    `${String(count).padStart(5)}   ${x.toFixed(2).padStart(24)}   ${y.toFixed(2).padStart(24)}   ${(y / x).toFixed(2)}x`,
  );
}
