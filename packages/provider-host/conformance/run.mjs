#!/usr/bin/env node
// Runs the official MCP conformance suite's SERVER scenarios against a provider
// host (the built package, serving test/fixtures/conformance-box.mjs over
// Streamable HTTP on 127.0.0.1). Needs the npm registry the first time: the
// suite requires Node 22, fetched with `npx -p node@22`.
//
//   node conformance/run.mjs            active suite, gated by expected-failures.yml
//   node conformance/run.mjs --pending  the pending scenarios that pass (json-schema-2020-12)
//   node conformance/run.mjs --and-pending  the active suite, then the pending scenarios, on one host and
//                                       one suite install (each run's exit code printed as `exit <code>: <run>`)
//   node conformance/run.mjs --modern   suite 0.2.0-alpha.12, the scenarios protocol revision
//                                       2026-07-28 requires, gated by expected-failures-2026.yml
//
// Exits with the suite's exit code: non-zero on any failure not in the
// baseline, or on a baseline entry that now passes.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveSuite, spawnSuite } from "../../../scripts/conformance-suite.mjs";
import { serveHttp } from "../dist/index.js";
import { createConformanceBox } from "../test/fixtures/conformance-box.mjs";

export const CONFORMANCE_VERSION = "0.1.16";
export const MODERN_CONFORMANCE_VERSION = "0.2.0-alpha.12";
const here = dirname(fileURLToPath(import.meta.url));

const host = await serveHttp(createConformanceBox(), { port: 0 });
const modern = process.argv.includes("--modern");
const ACTIVE = ["--expected-failures", join(here, "expected-failures.yml")];
const PENDING = ["--scenario", "json-schema-2020-12"];
const runs = modern
  ? [["2026-07-28", ["--requirements", "2026-07-28", "--expected-failures", join(here, "expected-failures-2026.yml")]]]
  : process.argv.includes("--and-pending")
    ? [
        ["active", ACTIVE],
        ["pending", PENDING],
      ]
    : process.argv.includes("--pending")
      ? [["pending", PENDING]]
      : [["active", ACTIVE]];
const pkg = `@modelcontextprotocol/conformance@${modern ? MODERN_CONFORMANCE_VERSION : CONFORMANCE_VERSION}`;

/** One suite run against the host; resolves with its exit code. */
async function runSuite(suite, extra) {
  const args = ["server", "--url", host.url.href, ...extra];
  process.stdout.write(`$ conformance ${args.join(" ")}\n`);
  return new Promise((resolve) => {
    const child = spawnSuite(suite, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("exit", (exitCode) => resolve(exitCode ?? 1));
    child.on("error", (error) => {
      process.stderr.write(`could not run the suite: ${error.message}\n`);
      resolve(1);
    });
  });
}

let code = 0;
try {
  // Node 22 and the suite resolved through npx once, then run directly (scripts/conformance-suite.mjs).
  const suite = await resolveSuite(pkg);
  for (const [label, extra] of runs) {
    const exit = await runSuite(suite, extra);
    if (runs.length > 1) process.stdout.write(`exit ${exit}: ${label}\n`);
    code ||= exit;
  }
} catch (error) {
  process.stderr.write(`could not resolve ${pkg} through npx: ${error.message}\n`);
  code = 1;
}
await host.close({ graceMs: 1000 });
process.exit(code);
