#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite's client scenarios against
 * @indus/endpoint (through conformance/client.mjs).
 *
 *   node conformance/run.mjs            CI scenarios (initialize, tools_call, sse-retry, elicitation defaults, six auth/*); exit 1 on failure
 *   node conformance/run.mjs --all      every client scenario, checked against baseline.json
 *   node conformance/run.mjs --all --write-baseline   record the results in baseline.json (keeps notes)
 *   node conformance/run.mjs --scenario auth/basic-cimd   one scenario
 *
 * The suite needs Node >= 22 (it uses fs.globSync); the adapter runs on this
 * Node. Both the suite and Node 22 come from the npm registry via npx, once.
 * The endpoint under test is a fresh bundle of src/ (not dist/), so a run
 * always measures the current source.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveSuite, spawnSuite } from "../../../scripts/conformance-suite.mjs";
import { bundleSource } from "../scripts/bundle-source.mjs";

/** The suite version; `INDUS_CONFORMANCE_SUITE` picks another (e.g. `@modelcontextprotocol/conformance@0.2.0-alpha.12`). */
export const SUITE_PACKAGE = process.env.INDUS_CONFORMANCE_SUITE ?? "@modelcontextprotocol/conformance@0.1.16";
/** The auth scenarios in CI cover discovery + registration, URL client ids, step-up, pre-registration and client credentials. */
export const CI_SCENARIOS = [
  "initialize",
  "tools_call",
  "sse-retry",
  "elicitation-sep1034-client-defaults",
  "auth/metadata-default",
  "auth/basic-cimd",
  "auth/scope-step-up",
  "auth/pre-registration",
  // Machine-to-machine (client_credentials) with client_secret_basic and private_key_jwt.
  "auth/client-credentials-basic",
  "auth/client-credentials-jwt",
  // 2026-07-28 client scenarios and DPoP (SEP-1932), present from 0.2.0-alpha on.
  ...(process.env.INDUS_CONFORMANCE_SUITE
    ? [
        "request-metadata",
        "http-standard-headers",
        "http-custom-headers",
        "http-invalid-tool-headers",
        "auth/dpop",
        "auth/dpop-nonce",
      ]
    : []),
];

const here = path.dirname(fileURLToPath(import.meta.url));
/** One baseline per suite version: `baseline.json` for 0.1.16, `baseline-<version>.json` for another. */
const baselineFile = process.env.INDUS_CONFORMANCE_SUITE
  ? path.join(here, `baseline-${SUITE_PACKAGE.slice(SUITE_PACKAGE.lastIndexOf("@") + 1)}.json`)
  : path.join(here, "baseline.json");

/** A fresh bundle of src/ in conformance/.build/. */
function bundleEndpoint() {
  return bundleSource(path.join(here, ".build"));
}

function listClientScenarios(suite) {
  const out = execFileSync(suite.node, [suite.conformance, "list"], { encoding: "utf8" });
  const client = out.slice(out.indexOf("Client scenarios"));
  return [...client.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** One scenario: `{scenario, passed, failures: [{id, status, message}]}`. */
function runScenario(suite, scenario, adapterEnv) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-conformance-"));
  const command = `${process.execPath} ${path.join(here, "client.mjs")}`;
  return new Promise((resolve) => {
    const child = spawnSuite(
      suite,
      ["client", "--command", command, "--scenario", scenario, "--timeout", "30000", "-o", outDir],
      { env: { ...process.env, ...adapterEnv }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let log = "";
    child.stdout.on("data", (chunk) => (log += chunk));
    child.stderr.on("data", (chunk) => (log += chunk));
    child.on("close", (code) => {
      const checks = findChecks(outDir);
      fs.rmSync(outDir, { recursive: true, force: true });
      const failures = checks
        .filter((check) => check.status === "FAILURE" || check.status === "WARNING")
        .map((check) => ({ id: check.id, status: check.status, message: check.errorMessage ?? "" }));
      // Checks that were all skipped prove nothing: the client never did what the scenario tests.
      const vacuous =
        checks.length > 0 && checks.every((check) => check.status === "SKIPPED" || check.status === "INFO");
      if (vacuous) failures.push({ id: "(all checks skipped)", status: "SKIPPED", message: "vacuous pass" });
      resolve({ scenario, passed: code === 0 && failures.length === 0 && checks.length > 0, failures, log, checks });
    });
  });
}

function findChecks(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === "checks.json") {
      return JSON.parse(fs.readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), "utf8"));
    }
  }
  return [];
}

async function main() {
  const args = process.argv.slice(2);
  const all = args.includes("--all");
  const write = args.includes("--write-baseline");
  const single = args.includes("--scenario") ? args[args.indexOf("--scenario") + 1] : undefined;

  const endpointModule = await bundleEndpoint();
  const suite = await resolveSuite(SUITE_PACKAGE);
  const scenarios = single ? [single] : all ? listClientScenarios(suite) : CI_SCENARIOS;
  const baseline = fs.existsSync(baselineFile) ? JSON.parse(fs.readFileSync(baselineFile, "utf8")) : { scenarios: {} };

  const results = [];
  // One at a time: sse-retry checks reconnect timing to ±200 ms, which parallel runs on a small machine break.
  for (const scenario of scenarios) {
    let result = await runScenario(suite, scenario, { INDUS_ENDPOINT_MODULE: endpointModule });
    if (!result.passed && CI_SCENARIOS.includes(scenario)) {
      // Timing checks are sensitive to load; a real regression fails twice.
      result = { ...(await runScenario(suite, scenario, { INDUS_ENDPOINT_MODULE: endpointModule })), retried: true };
    }
    results.push(result);
    const mark = result.passed ? "PASS" : "FAIL";
    const detail = result.failures.map((f) => `${f.id}${f.message ? ` (${f.message.slice(0, 100)})` : ""}`).join("; ");
    console.log(`${mark}  ${scenario}${result.retried ? " (after one retry)" : ""}${detail ? `  ${detail}` : ""}`);
  }

  let exitCode = 0;
  for (const result of results) {
    const expected = baseline.scenarios?.[result.scenario]?.status;
    const ci = CI_SCENARIOS.includes(result.scenario);
    if (ci && !result.passed) exitCode = 1;
    if (all && !write && expected && (expected === "pass") !== result.passed) {
      console.log(`  baseline mismatch: ${result.scenario} expected ${expected}`);
      exitCode = 1;
    }
    if (!result.passed && (ci || single)) console.log(result.log.split("\n").slice(-30).join("\n"));
  }

  if (write) {
    const next = { suite: SUITE_PACKAGE, recorded: new Date().toISOString().slice(0, 10), scenarios: {} };
    for (const result of results) {
      const previous = baseline.scenarios?.[result.scenario] ?? {};
      next.scenarios[result.scenario] = {
        status: result.passed ? "pass" : "fail",
        ci: CI_SCENARIOS.includes(result.scenario),
        failingChecks: result.failures.map((f) => f.id),
        note: previous.note ?? "",
      };
    }
    fs.writeFileSync(baselineFile, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), baselineFile)}`);
  }
  process.exitCode = exitCode;
}

await main();
