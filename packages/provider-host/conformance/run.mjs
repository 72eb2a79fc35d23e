#!/usr/bin/env node
// Runs the official MCP conformance suite's SERVER scenarios against a provider
// host (the built package, serving test/fixtures/conformance-box.mjs over
// Streamable HTTP on 127.0.0.1). Needs the npm registry the first time: the
// suite requires Node 22, fetched with `npx -p node@22`.
//
//   node conformance/run.mjs            active suite, gated by expected-failures.yml
//   node conformance/run.mjs --pending  the pending scenarios that pass (json-schema-2020-12)
//   node conformance/run.mjs --modern   suite 0.2.0-alpha.12, the scenarios protocol revision
//                                       2026-07-28 requires, gated by expected-failures-2026.yml
//
// Exits with the suite's exit code: non-zero on any failure not in the
// baseline, or on a baseline entry that now passes.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveHttp } from "../dist/index.js";
import { createConformanceBox } from "../test/fixtures/conformance-box.mjs";

export const CONFORMANCE_VERSION = "0.1.16";
export const MODERN_CONFORMANCE_VERSION = "0.2.0-alpha.12";
const here = dirname(fileURLToPath(import.meta.url));

const host = await serveHttp(createConformanceBox(), { port: 0 });
const modern = process.argv.includes("--modern");
const suite = process.argv.includes("--pending")
  ? ["--scenario", "json-schema-2020-12"]
  : modern
    ? ["--requirements", "2026-07-28", "--expected-failures", join(here, "expected-failures-2026.yml")]
    : ["--expected-failures", join(here, "expected-failures.yml")];
const args = [
  "-y",
  "-p",
  "node@22",
  "-p",
  `@modelcontextprotocol/conformance@${modern ? MODERN_CONFORMANCE_VERSION : CONFORMANCE_VERSION}`,
  "conformance",
  "server",
  "--url",
  host.url.href,
  ...suite,
];
process.stdout.write(`$ npx ${args.join(" ")}\n`);
const code = await new Promise((resolve) => {
  const child = spawn("npx", args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, npm_config_yes: "true" },
  });
  child.on("exit", (exitCode) => resolve(exitCode ?? 1));
  child.on("error", (error) => {
    process.stderr.write(`could not run npx: ${error.message}\n`);
    resolve(1);
  });
});
await host.close({ graceMs: 1000 });
process.exit(code);
