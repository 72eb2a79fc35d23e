#!/usr/bin/env node
/**
 * grep/find on a generated tree of 100,000 files (20,000 with BENCH_QUICK=1),
 * against GNU `grep -r` and `find -name` on the same tree in the same run.
 * Runs the built package (`pnpm build` first). Prints medians and ratios
 * (baseline time / deck time: above 1 means the deck tool is faster).
 *
 *   node bench/search.bench.mjs            # 100,000 files
 *   BENCH_QUICK=1 node bench/search.bench.mjs
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deckContext, findRipgrep, provisionDeck } from "../dist/index.js";

const QUICK = process.env.BENCH_QUICK === "1";
const FILES = QUICK ? 20_000 : 100_000;
const RUNS = QUICK ? 3 : 5;
const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split(
  " ",
);

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function generate(root) {
  const rand = rng(42);
  const exts = [".ts", ".js", ".md", ".json", ".py"];
  let needles = 0;
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, `d${i % 20}`, `e${Math.floor(i / 20) % 25}`, `f${Math.floor(i / 500) % 10}`);
    if (i < 5000) fs.mkdirSync(dir, { recursive: true });
    const lines = [];
    const count = 10 + Math.floor(rand() * 40);
    for (let l = 0; l < count; l++) {
      const words = [];
      for (let w = 0; w < 8; w++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
      lines.push(words.join(" "));
    }
    if (i % 997 === 0) {
      lines.splice(Math.floor(count / 2), 0, `const needle_${i} = findTheNeedle();`);
      needles++;
    }
    fs.writeFileSync(path.join(dir, `file${i}${exts[i % exts.length]}`), `${lines.join("\n")}\n`);
  }
  return needles;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(fn) {
  const samples = [];
  let result;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    result = await fn();
    samples.push(performance.now() - t0);
  }
  return { ms: median(samples), result };
}

function sh(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  } catch (error) {
    if (error.status === 1) return ""; // grep: no match
    throw error;
  }
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "deck-bench-"));
try {
  const t0 = performance.now();
  const needles = generate(root);
  console.log(
    `tree: ${FILES.toLocaleString()} files, ${needles} containing the needle (generated in ${((performance.now() - t0) / 1000).toFixed(1)}s)`,
  );
  console.log(`ripgrep: ${findRipgrep() ?? "not on PATH"}; runs per case: ${RUNS} (median)\n`);

  const engines = findRipgrep() ? ["ripgrep", "js"] : ["js"];
  const rows = [];
  const lines = (text) => text.split("\n").filter((l) => l !== "" && !l.startsWith("["));

  const baselineFiles = await time(() => sh("grep", ["-rl", "findTheNeedle", "."], root));
  const baselineContent = await time(() => sh("grep", ["-rn", "findTheNeedle", "."], root));
  const baselineFind = await time(() => sh("find", [".", "-name", "*.ts", "-type", "f"], root));

  for (const engine of engines) {
    const deck = provisionDeck("authoring", deckContext(root, { options: { searchEngine: engine } }));
    const box = deck.intoToolBox();
    const run = async (name, input) => {
      const outcome = await box.runner.run({ id: "b", name, input });
      if (outcome.isError) throw new Error(JSON.stringify(outcome.content));
      return outcome.content[0].text;
    };
    const files = await time(() => run("grep", { pattern: "findTheNeedle", limit: 10_000 }));
    const content = await time(() => run("grep", { pattern: "findTheNeedle", output_mode: "content", limit: 10_000 }));
    const found = await time(() => run("find", { pattern: "*.ts", limit: 10_000 }));
    // Same answers as the baseline, or the comparison means nothing.
    if (lines(files.result).length !== lines(baselineFiles.result).length)
      throw new Error(`${engine}: grep files differ from grep -rl`);
    if (lines(content.result).length !== lines(baselineContent.result).length)
      throw new Error(`${engine}: grep content differs from grep -rn`);
    if (lines(found.result).length !== Math.min(10_000, lines(baselineFind.result).length))
      throw new Error(`${engine}: find differs from find -name`);
    rows.push([`grep files (${engine})`, "grep -rl", files.ms, baselineFiles.ms]);
    rows.push([`grep content (${engine})`, "grep -rn", content.ms, baselineContent.ms]);
    rows.push([`find *.ts (${engine})`, "find -name", found.ms, baselineFind.ms]);
  }

  const pad = (s, n) => String(s).padEnd(n);
  console.log(`${pad("case", 26)}${pad("deck ms", 10)}${pad("baseline", 12)}${pad("base ms", 10)}ratio`);
  for (const [name, base, ms, baseMs] of rows) {
    console.log(
      `${pad(name, 26)}${pad(ms.toFixed(0), 10)}${pad(base, 12)}${pad(baseMs.toFixed(0), 10)}${(baseMs / ms).toFixed(2)}x`,
    );
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
