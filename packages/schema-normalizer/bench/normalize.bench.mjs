#!/usr/bin/env node
/**
 * Normalizations per second over the committed tools/list corpus, against two
 * baselines measured in the same run on the same schemas: structuredClone and
 * JSON.parse(JSON.stringify()) (a plain deep copy is the least any normalizer
 * must do). Also prints bytes before/after per target and the hostile-input
 * timings quoted in the README.
 *
 *   pnpm --filter @indus/schema-normalizer bench          (after build)
 *   BENCH_QUICK=1 pnpm --filter @indus/schema-normalizer bench
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeSchema } from "../dist/index.js";

const quick = process.env.BENCH_QUICK === "1";
const here = dirname(fileURLToPath(import.meta.url));
const corpusDir = join(here, "..", "test", "fixtures", "corpus");

const schemas = [];
for (const name of readdirSync(corpusDir).filter((file) => file.endsWith(".json")).sort()) {
  const corpus = JSON.parse(readFileSync(join(corpusDir, name), "utf8"));
  for (const tool of corpus.tools) {
    schemas.push(tool.inputSchema);
    if (tool.outputSchema) schemas.push(tool.outputSchema);
  }
}
const bytes = (list) => list.reduce((sum, schema) => sum + JSON.stringify(schema).length, 0);

/**
 * Schemas per second for each contender: best of N rounds, the contenders
 * interleaved round by round so a noisy, shared machine slows all of them alike.
 */
function measureAll(contenders) {
  const rounds = quick ? 3 : 9;
  const minMs = quick ? 100 : 300;
  for (const { fn } of contenders) for (let warm = 0; warm < (quick ? 500 : 5000); warm++) fn(schemas[warm % schemas.length]);
  const best = contenders.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    contenders.forEach(({ fn }, index) => {
      let done = 0;
      let elapsed = 0;
      const start = performance.now();
      while (elapsed < minMs) {
        for (const schema of schemas) fn(schema);
        done += schemas.length;
        elapsed = performance.now() - start;
      }
      best[index] = Math.max(best[index], (done / elapsed) * 1000);
    });
  }
  return contenders.map(({ label }, index) => ({ label, perSecond: best[index] }));
}

console.log(`corpus: ${schemas.length} schemas (tools/list input+output schemas), ${bytes(schemas)} bytes${quick ? " [BENCH_QUICK]" : ""}`);
for (const target of ["portable", "gemini"]) {
  const out = schemas.map((schema) => normalizeSchema(schema, { target }));
  const before = bytes(schemas);
  const after = bytes(out);
  console.log(`bytes ${target.padEnd(8)} before ${before}  after ${after}  (${((after / before) * 100).toFixed(1)}%)`);
}

const rows = measureAll([
  { label: "structuredClone (baseline)", fn: (schema) => structuredClone(schema) },
  { label: "JSON.parse(JSON.stringify) (baseline)", fn: (schema) => JSON.parse(JSON.stringify(schema)) },
  { label: "normalizeSchema portable", fn: (schema) => normalizeSchema(schema) },
  { label: "normalizeSchema gemini", fn: (schema) => normalizeSchema(schema, { target: "gemini" }) },
]);
const base = rows[0].perSecond;
for (const row of rows) {
  console.log(
    `${row.label.padEnd(40)} ${Math.round(row.perSecond).toString().padStart(9)} schemas/s  ${(row.perSecond / base).toFixed(2)}x structuredClone  ${(1e6 / row.perSecond).toFixed(1)} µs/schema`,
  );
}

// Hostile inputs: one timed call each (the README's measured bounds).
function time(label, make, check) {
  const input = make();
  const start = performance.now();
  const out = normalizeSchema(input);
  const ms = performance.now() - start;
  console.log(`hostile ${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  ${check(out)}`);
}
const nest = (depth, wrap) => {
  let schema = { type: "string" };
  for (let i = 0; i < depth; i++) schema = wrap(schema);
  return schema;
};
time("10,000-deep properties", () => nest(10_000, (inner) => ({ type: "object", properties: { a: inner } })), (out) => `output depth ${JSON.stringify(out).split('"properties"').length - 1} objects`);
time("10,000-deep $ref chain", () => {
  const defs = {};
  for (let i = 0; i < 10_000; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  defs.d10000 = { type: "string" };
  return { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs: defs };
}, (out) => JSON.stringify(out.properties.x));
time("100,000 properties", () => {
  const properties = {};
  for (let i = 0; i < 100_000; i++) properties[`p${i}`] = { type: "string" };
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}, (out) => `${Object.keys(out.properties).length} properties kept, additionalProperties ${out.additionalProperties}`);
time("2^30 $ref expansion (billion laughs)", () => {
  const defs = { l30: { type: "string" } };
  for (let i = 0; i < 30; i++) defs[`l${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/l${i + 1}` }, b: { $ref: `#/$defs/l${i + 1}` } } };
  return { type: "object", properties: { x: { $ref: "#/$defs/l0" } }, $defs: defs };
}, (out) => `${JSON.stringify(out).length} bytes out`);
time("cyclic JS object", () => {
  const schema = { type: "object", properties: {} };
  schema.properties.self = schema;
  return schema;
}, (out) => JSON.stringify(out));
time("64 MiB description", () => ({ type: "object", description: "x".repeat(64 * 1024 * 1024) }), (out) => `${out.description.length} chars kept`);
time("1,000,000-value enum", () => ({ type: "object", properties: { e: { enum: Array.from({ length: 1_000_000 }, (_, i) => `v${i}`) } } }), (out) => JSON.stringify(out.properties.e));
