/**
 * The official MCP conformance suite for the runners that start it once per scenario: Node 22 and the
 * suite's entry point are resolved through npx ONCE per version (npx costs ~3 s of CPU each time it
 * starts, more than a scenario itself), then every scenario spawns them directly.
 */
import { execFile, spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";

const resolved = new Map();

/**
 * `{ node, conformance }` for `pkg` (`@modelcontextprotocol/conformance@<version>`), fetched by npx on first
 * use and cached in npm's npx cache; one npx per package per process.
 */
export function resolveSuite(pkg) {
  if (!resolved.has(pkg)) resolved.set(pkg, locate(pkg));
  return resolved.get(pkg);
}

async function locate(pkg) {
  const { stdout } = await promisify(execFile)(
    "npx",
    ["-y", "-p", "node@22", "-p", pkg, "--", "sh", "-c", "command -v node; command -v conformance"],
    // From a folder outside the workspace: npx in a project first reads that project's node_modules tree
    // (~2.5 s of CPU more here), and the suite is never a dependency of it.
    { cwd: tmpdir(), encoding: "utf8", timeout: 300_000, env: { ...process.env, npm_config_yes: "true" } },
  );
  const [node, conformance] = stdout.trim().split("\n").slice(-2);
  return { node, conformance: realpathSync(conformance) };
}

/** Spawns `conformance <args>` of a resolved suite; `options` as for child_process.spawn. */
export function spawnSuite(suite, args, options) {
  return spawn(suite.node, [suite.conformance, ...args], options);
}

/** Runs `tasks` (functions returning promises) at most `limit` at a time; resolves with their results in order. */
export async function inPool(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const at = next++;
      results[at] = await tasks[at]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
