#!/usr/bin/env node
/**
 * Runs the whole Jest suite (the last step of `pnpm test`) and prints its
 * wall time, so CI logs show whether the suite is growing slower. Arguments
 * pass through to Jest; the exit code is Jest's.
 */
import { spawnSync } from "node:child_process";

const started = process.hrtime.bigint();
const result = spawnSync("jest", process.argv.slice(2), { stdio: "inherit", shell: false });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`jest wall time: ${Math.round(seconds)}s`);
if (result.error) throw result.error;
process.exit(result.status ?? 1);
