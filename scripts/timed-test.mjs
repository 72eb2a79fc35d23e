#!/usr/bin/env node
/**
 * `pnpm test`: the checks (one `turbo run`: build, type check, type-aware
 * ESLint, prettier, publint, layering) and the whole Jest suite. Jest starts as
 * soon as the type checks, publint and layering passed (turbo's
 * `//#type-checks-passed` task tells this process), while ESLint may still run
 * beside it: ESLint is one process of about two minutes, and Jest leaves CPU idle
 * while its tests wait on child processes and sockets
 * (docs/decisions/eslint-beside-typecheck.md). The first part to fail stops the
 * other (Jest included) and is named last. Prints the wall times of the checks,
 * of Jest and in all, so CI logs show which part grows slower (the budget is in
 * issue 27: 12 minutes on a quiet 2-core machine). Arguments pass through to
 * Jest; the exit code is the failed part's, or 0.
 */
import { spawn } from "node:child_process";

const TURBO_TASKS = ["build", "typecheck", "lint:eslint", "format:check", "publint", "layering", "type-checks-passed"];

const seconds = (since) => Math.round(Number(process.hrtime.bigint() - since) / 1e9);
const running = new Set();

/**
 * Starts a part in its own process group (so stopping it stops what it started: tsc, ESLint, Jest's
 * workers and their servers); `done` resolves with its exit code.
 */
function start(name, command, args) {
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", INDUS_TEST_RUNNER_PID: String(process.pid) };
  const child = spawn(command, args, { stdio: "inherit", detached: true, env });
  running.add(child);
  const done = new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code ?? 1);
    });
  });
  return { name, done };
}

function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** The first part that failed; it stops the other. */
let failure;
async function finish(part) {
  const status = await part.done;
  if (status === 0 || failure !== undefined) return;
  failure = { name: part.name, status };
  if (running.size > 0) console.error(`\npnpm test: ${part.name} failed (exit ${status}); stopping the rest`);
  stopAll();
}

const started = process.hrtime.bigint();
let jest;
const startJest = () => {
  if (jest !== undefined || failure !== undefined) return;
  console.log(`type checks wall time: ${seconds(started)}s (Jest starts)`);
  jest = finish(start("jest", process.execPath, ["scripts/timed-jest.mjs", ...process.argv.slice(2)]));
};
process.on("SIGUSR2", startJest);
await finish(start("checks", "turbo", ["run", ...TURBO_TASKS, "--output-logs=errors-only"]));
console.log(`checks wall time: ${seconds(started)}s`);
startJest(); // when the checks passed without the type checks' word (never expected)
await jest;
console.log(`pnpm test wall time: ${seconds(started)}s`);
if (failure !== undefined) console.error(`pnpm test: FAILED at ${failure.name} (exit ${failure.status})`);
process.exit(failure?.status ?? 0);
