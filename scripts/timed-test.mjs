#!/usr/bin/env node
/**
 * `pnpm test`: the checks (one `turbo run`: build, type check, type-aware
 * ESLint, prettier, publint, layering), then the whole Jest suite, stopping at
 * the first failure. Prints each part's wall time and the total, so CI logs show which
 * part grows slower (the suite's budget is in issue 27: 12 minutes on a quiet
 * 2-core machine). Arguments pass through to Jest; the exit code is the failed
 * step's, or 0.
 */
import { spawnSync } from "node:child_process";

const TURBO_TASKS = ["build", "typecheck", "lint:eslint", "format:check", "publint", "layering"];
const STEPS = [
  { name: "checks", command: "turbo", args: ["run", ...TURBO_TASKS, "--output-logs=errors-only"] },
  { name: "jest", command: process.execPath, args: ["scripts/timed-jest.mjs", ...process.argv.slice(2)] },
];

const seconds = (since) => Math.round(Number(process.hrtime.bigint() - since) / 1e9);

const started = process.hrtime.bigint();
let status = 0;
for (const step of STEPS) {
  const stepStarted = process.hrtime.bigint();
  const result = spawnSync(step.command, step.args, {
    stdio: "inherit",
    shell: false,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
  });
  if (result.error) throw result.error;
  if (step.name !== "jest") console.log(`${step.name} wall time: ${seconds(stepStarted)}s`);
  status = result.status ?? 1;
  if (status !== 0) break;
}
console.log(`pnpm test wall time: ${seconds(started)}s`);
process.exit(status);
