#!/usr/bin/env node
/**
 * turbo's `//#type-checks-passed` (turbo.json): runs once every package's type check, publint and layering
 * passed, and tells `pnpm test` (scripts/timed-test.mjs, whose pid is INDUS_TEST_RUNNER_PID) with SIGUSR2, so
 * Jest starts while ESLint and prettier may still run. Run any other way it does nothing. Fails when the task's
 * `dependsOn` lacks a package's `#typecheck`: Jest would start before that package's type check passed.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const TASK = "//#type-checks-passed";

/** Every workspace package with a `typecheck` script, as `<name>#typecheck`. */
function typeChecks() {
  return ["packages", "apps"].flatMap((group) =>
    fs
      .readdirSync(path.join(root, group))
      .map((dir) => path.join(root, group, dir, "package.json"))
      .filter((file) => fs.existsSync(file))
      .map((file) => JSON.parse(fs.readFileSync(file, "utf8")))
      .filter((pkg) => pkg.scripts?.typecheck !== undefined)
      .map((pkg) => `${pkg.name}#typecheck`),
  );
}

const turbo = JSON.parse(fs.readFileSync(path.join(root, "turbo.json"), "utf8"));
const dependsOn = new Set(turbo.tasks[TASK]?.dependsOn ?? []);
const lacking = typeChecks().filter((task) => !dependsOn.has(task));
if (lacking.length > 0) {
  console.error(`turbo.json's ${TASK} dependsOn lacks ${lacking.map((task) => `"${task}"`).join(", ")}`);
  process.exit(1);
}
const runner = Number(process.env.INDUS_TEST_RUNNER_PID);
if (Number.isInteger(runner) && runner > 0) process.kill(runner, "SIGUSR2");
