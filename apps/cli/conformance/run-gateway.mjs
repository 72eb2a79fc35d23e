#!/usr/bin/env node
// Does the gateway carry all of MCP? Runs the SERVER scenarios of the official
// conformance suite against reference-like servers, each measured directly and
// through `indusr mcp serve --http --names as-is` (the BUILT cli, no built-in
// tools) with the server mounted over stdio and by URL. Runs (`--run`):
//
//   0.1.16 (default): suite 0.1.16, `--suite all` (active and pending), against
//     reference:  packages/testkit/fixtures/conformance-reference.mjs (32/32 directly)
//     everything: @modelcontextprotocol/server-everything
//   2026-07-28: suite 0.2.0-alpha.12, `--requirements 2026-07-28` (the 2026 wire:
//     no initialize, per-request _meta, input_required, server/discover), against
//     both-eras:  packages/testkit/fixtures/conformance-2026.mjs
//   2025-11-25: suite 0.2.0-alpha.12, `--requirements 2025-11-25` (the 2025 wire), against both-eras
//   tasks: suite 0.2.0-alpha.12, the 10 `tasks-*` scenarios one by one (`--spec-version 2026-07-28 --force`:
//     the Tasks extension is not scored by any requirement set), against
//     tasks: examples/extensions/tasks-server.mjs (10/10 directly),
//     also through a `--stateless` gateway (gateway-stateless: URL mount, lock file approved first)
//
// A scenario fails through the gateway as a REGRESSION when it passes against
// the same server directly (same run) and gateway-baseline.json does not list
// it for that run and target with a reason. A direct target regresses when a scenario
// fails that its baseline does not list. Exits 1 on a regression; baseline
// entries that now pass are reported, and fail the run only under --strict.
//
//   node conformance/run-gateway.mjs [--run 0.1.16,2026-07-28,2025-11-25,tasks] [--target reference:gateway-url,...]
//                                    [--scenario <name>] [--strict] [--why] [--jobs <n>]
//
// --why prints every failing check's message, baselined or not. --jobs: how many targets are measured at
// once (each has its own gateway and results); default 4 for tasks (40 suite processes that mostly wait on
// the servers), 2 for the others: a suite run mostly waits on its timed checks (e.g. a stateless server's
// logs), so two at a time cut the 2026-07-28 + 2025-11-25 runs from 59 s to 36-42 s wall at the same CPU
// (load 12-17); a check such a wait loses on a loaded machine runs once more on its own (retryRegressions).
//
// Everything listens on 127.0.0.1; the suite needs Node 22, resolved once per suite version by npx.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { inPool, resolveSuite, spawnSuite } from "../../../scripts/conformance-suite.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const INDUSR = join(here, "..", "dist", "indusr.js");
const LOOPBACK = join(here, "..", "..", "..", "packages", "testkit", "fixtures", "loopback.cjs");
const REFERENCE = join(here, "..", "..", "..", "packages", "testkit", "fixtures", "conformance-reference.mjs");
const BOTH_ERAS = join(here, "..", "..", "..", "packages", "testkit", "fixtures", "conformance-2026.mjs");
const TASKS = join(here, "..", "..", "..", "examples", "extensions", "tasks-server.mjs");
const EVERYTHING = join(here, "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const BASELINE = JSON.parse(readFileSync(join(here, "gateway-baseline.json"), "utf8"));
const MODES = ["direct", "gateway-stdio", "gateway-url"];
const NEXT = "0.2.0-alpha.12";
/** The Tasks extension's server scenarios (SEP-2663) in 0.2.0-alpha.12. */
const TASK_SCENARIOS = [
  "lifecycle",
  "capability-negotiation",
  "wire-fields",
  "request-state-removal",
  "mrtr-input",
  "request-headers",
  "dispatch-and-envelope",
  "status-notifications",
  "required-task-error",
  "mrtr-composition",
].map((name) => `tasks-${name}`);
/** Which suite, which of its scenarios (and at which wire, for `--scenario`), against which servers. */
const RUNS = {
  "0.1.16": { version: "0.1.16", select: ["--suite", "all"], servers: ["reference", "everything"], jobs: 2 },
  "2026-07-28": {
    version: NEXT,
    select: ["--requirements", "2026-07-28"],
    one: ["--spec-version", "2026-07-28"],
    servers: ["both-eras"],
    jobs: 2,
  },
  "2025-11-25": {
    version: NEXT,
    select: ["--requirements", "2025-11-25"],
    one: ["--spec-version", "2025-11-25"],
    servers: ["both-eras"],
    jobs: 2,
  },
  tasks: {
    version: NEXT,
    scenarios: TASK_SCENARIOS,
    one: ["--spec-version", "2026-07-28", "--force"],
    servers: ["tasks"],
    modes: [...MODES, "gateway-stateless"],
    jobs: 4,
  },
};
const targetsOf = (run) =>
  RUNS[run].servers.flatMap((server) => (RUNS[run].modes ?? MODES).map((mode) => `${server}:${mode}`));

const children = new Set();
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

function parseArgs(argv) {
  const value = (flag) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const runs = value("--run")?.split(",") ?? ["0.1.16"];
  const unknownRuns = runs.filter((run) => RUNS[run] === undefined);
  if (unknownRuns.length > 0) throw new Error(`unknown run ${unknownRuns.join(", ")}; one of ${Object.keys(RUNS)}`);
  const known = [...new Set(runs.flatMap(targetsOf))];
  const targets = value("--target")?.split(",") ?? known;
  const unknown = targets.filter((target) => !known.includes(target));
  if (unknown.length > 0) throw new Error(`unknown target ${unknown.join(", ")}; one of ${known.join(", ")}`);
  return {
    runs,
    targets,
    scenario: value("--scenario"),
    strict: argv.includes("--strict"),
    why: argv.includes("--why"),
    jobs: value("--jobs") === undefined ? undefined : Number(value("--jobs")),
  };
}

/** Spawns node with `args`; resolves with the first capture of `pattern` in stdout or stderr. */
function start(args, env, pattern) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env });
  children.add(child);
  const ready = new Promise((resolve, reject) => {
    let seen = "";
    const onLine = (line) => {
      seen = `${seen}${line}\n`.slice(-4000);
      const match = pattern.exec(line);
      if (match) resolve(match[1]);
    };
    createInterface({ input: child.stdout }).on("line", onLine);
    createInterface({ input: child.stderr }).on("line", onLine);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${seen}`)));
  });
  return { child, ready };
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Each server `names` asks for: how to spawn it over stdio, and it running over HTTP. */
async function startServers(env, names) {
  const servers = {};
  const running = [];
  if (names.has("reference")) {
    const reference = start([REFERENCE, "http"], env, /listening at (http:\S+)/);
    running.push(reference);
    servers.reference = { url: await reference.ready, stdio: { command: process.execPath, args: [REFERENCE] } };
  }
  if (names.has("both-eras")) {
    const bothEras = start([BOTH_ERAS, "http"], env, /listening at (http:\S+)/);
    running.push(bothEras);
    servers["both-eras"] = { url: await bothEras.ready, stdio: { command: process.execPath, args: [BOTH_ERAS] } };
  }
  if (names.has("tasks")) {
    const tasks = start([TASKS, "--port", "0"], env, /listening at (http:\S+)/);
    running.push(tasks);
    servers.tasks = { url: await tasks.ready, stdio: { command: process.execPath, args: [TASKS, "--stdio"] } };
  }
  if (names.has("everything")) {
    const port = await freePort();
    const everything = start(
      ["-r", LOOPBACK, EVERYTHING, "streamableHttp"],
      { ...env, PORT: String(port) },
      /(listening on port)/i,
    );
    running.push(everything);
    await everything.ready;
    servers.everything = {
      url: `http://127.0.0.1:${port}/mcp`,
      stdio: { command: process.execPath, args: [EVERYTHING, "stdio"] },
    };
  }
  return { ...servers, stop: () => Promise.all(running.map((each) => stop(each.child))) };
}

/** The gateway flags this build has: `--names as-is` and no built-ins, once they exist. */
async function gatewayFlags(env) {
  const help = await new Promise((resolve) => {
    const child = spawn(process.execPath, [INDUSR, "mcp", "serve", "--help"], { env });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.once("close", () => resolve(out));
  });
  const flags = [];
  if (help.includes("--names")) flags.push("--names", "as-is");
  else process.stdout.write("note: this indusr has no --names flag; tools and prompts stay prefixed\n");
  const noBuiltins = /--no-builtins|--no-built-ins/.exec(help)?.[0];
  if (noBuiltins !== undefined) flags.push(noBuiltins);
  else process.stdout.write("note: this indusr cannot leave out built-in tools; they are served too\n");
  // The gateway stands in for the server: every tool is published, not only the read-only ones.
  flags.push("--profile", "survey");
  return flags;
}

/** Runs indusr with `args` to its end; rejects when it fails. */
function runIndusr(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INDUSR, ...args], { stdio: ["ignore", "ignore", "pipe"], env });
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`indusr ${args.join(" ")}: ${err}`))));
  });
}

async function startGateway(sandbox, env, flags, mount, stateless = false) {
  // Each gateway its own config and project: targets are measured at once.
  const own = join(sandbox, `gateway-${process.hrtime.bigint()}`);
  const project = join(own, "project");
  mkdirSync(project, { recursive: true });
  const config = join(own, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { server: mount } }));
  // A stateless replica writes no pins: it runs what the lock file beside its config approves.
  if (stateless) await runIndusr(["mcp", "approve", "server", "--mcp", config, "-C", project], env);
  if (stateless) flags = [...flags, "--stateless"];
  // The suite talks to what is mounted at once: wait for every server however loaded the machine is.
  const args = [INDUSR, "mcp", "serve", "--http", "--port", "0", "--boot-wait", "120000", ...flags, "--mcp", config];
  const gateway = start([...args, "-C", project], env, /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  return { url: await gateway.ready, stop: () => stop(gateway.child) };
}

/** Runs the suite against `url` (a run of named scenarios, each on its own); resolves with each scenario's checks. */
async function runSuite(url, outDir, run, scenario) {
  const { scenarios } = RUNS[run];
  if (scenario === undefined && scenarios !== undefined) {
    for (const each of scenarios) await runConformance(url, outDir, run, each);
  } else await runConformance(url, outDir, run, scenario);
  return readChecks(outDir);
}

/** One `conformance server` process against `url`: `scenario`, or the run's selection. */
async function runConformance(url, outDir, run, scenario) {
  const { version, select, one = [] } = RUNS[run];
  const suite = await resolveSuite(`@modelcontextprotocol/conformance@${version}`);
  const args = ["server", "--url", url, "-o", outDir, ...(scenario ? ["--scenario", scenario, ...one] : select)];
  await new Promise((resolve) => {
    const child = spawnSuite(suite, args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.resume();
    child.once("close", resolve);
    child.once("error", (error) => {
      process.stderr.write(`could not run the conformance suite: ${error.message}\n`);
      resolve();
    });
  });
}

/** `<out>/server-<scenario>-<timestamp>/checks.json` -> scenario -> checks. */
function readChecks(outDir) {
  const checks = new Map();
  for (const entry of readdirSync(outDir)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (name === undefined) continue;
    checks.set(name, JSON.parse(readFileSync(join(outDir, entry, "checks.json"), "utf8")));
  }
  return checks;
}

function verdictOf(checks) {
  if (checks === undefined) return { pass: false, why: "no result" };
  const failed = checks.filter((check) => check.status === "FAILURE");
  if (failed.length === 0) return { pass: true };
  return { pass: false, why: failed.map((check) => `${check.id}: ${check.errorMessage ?? "failed"}`).join("; ") };
}

async function measure(run, target, servers, gateway, sandbox, scenario, attempt = "first") {
  const [server, mode] = target.split(":");
  const outDir = join(sandbox, "results", run, target.replace(":", "-"), attempt);
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  if (mode === "direct") return finish(await runSuite(servers[server].url, outDir, run, scenario), started);
  const mount = mode === "gateway-stdio" ? servers[server].stdio : { url: servers[server].url };
  const running = await gateway(mount, mode === "gateway-stateless");
  try {
    return finish(await runSuite(running.url, outDir, run, scenario), started);
  } finally {
    await running.stop();
  }
}

function finish(checks, started) {
  const verdicts = new Map([...checks].map(([name, list]) => [name, verdictOf(list)]));
  return { verdicts, seconds: (Date.now() - started) / 1000 };
}

/** Compares one target's verdicts with the direct run of its server and with the baseline. */
function judge(run, target, results) {
  const [server, mode] = target.split(":");
  const allowed = BASELINE.runs[run]?.[target] ?? {};
  const direct = results.get(`${run} ${server}:direct`);
  const regressions = [];
  const stale = [];
  for (const [scenario, verdict] of results.get(`${run} ${target}`).verdicts) {
    const passesDirectly = mode === "direct" || direct === undefined || direct.verdicts.get(scenario)?.pass === true;
    if (verdict.pass && allowed[scenario] !== undefined) stale.push(scenario);
    if (!verdict.pass && passesDirectly && allowed[scenario] === undefined)
      regressions.push({ scenario, why: verdict.why });
  }
  return { regressions, stale };
}

/** One table per run: a row per scenario, a column per target. */
function report(keys, results) {
  const lines = [];
  for (const run of new Set(keys.map((key) => key.split(" ")[0]))) {
    const targets = keys.filter((key) => key.startsWith(`${run} `)).map((key) => key.slice(run.length + 1));
    const of = (target) => results.get(`${run} ${target}`);
    const scenarios = [...new Set(targets.flatMap((target) => [...of(target).verdicts.keys()]))];
    const width = Math.max(...scenarios.map((name) => name.length), run.length);
    lines.push(`${run.padEnd(width)}  ${targets.join("  ")}`);
    for (const scenario of scenarios) {
      const cells = targets.map((target) => {
        const verdict = of(target).verdicts.get(scenario);
        return (verdict === undefined ? "-" : verdict.pass ? "pass" : "FAIL").padEnd(target.length);
      });
      lines.push(`${scenario.padEnd(width)}  ${cells.join("  ")}`);
    }
    for (const target of targets) {
      const { verdicts, seconds } = of(target);
      const passed = [...verdicts.values()].filter((verdict) => verdict.pass).length;
      lines.push(`${run} ${target}: ${passed}/${verdicts.size} passed (${seconds.toFixed(1)} s)`);
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main() {
  const { runs, targets, scenario, strict, why, jobs } = parseArgs(process.argv.slice(2));
  const sandbox = mkdtempSync(join(tmpdir(), "indusr-gateway-conformance-"));
  const env = { PATH: process.env.PATH, HOME: join(sandbox, "home"), XDG_CONFIG_HOME: join(sandbox, "xdg") };
  for (const dir of [env.HOME, env.XDG_CONFIG_HOME, join(sandbox, "project")]) mkdirSync(dir, { recursive: true });
  const keys = runs.flatMap((run) =>
    targets.filter((target) => targetsOf(run).includes(target)).map((t) => `${run} ${t}`),
  );
  const servers = await startServers(env, new Set(keys.map((key) => key.split(/[ :]/)[1])));
  const flags = await gatewayFlags(env);
  process.stdout.write(`gateway: indusr mcp serve --http ${flags.join(" ")}\n`);
  const results = new Map();
  try {
    const gateway = (mount, stateless) => startGateway(sandbox, env, flags, mount, stateless);
    for (const run of runs) {
      const ofRun = keys.filter((key) => key.startsWith(`${run} `));
      const measured = await inPool(
        ofRun.map((key) => () => measure(run, key.slice(run.length + 1), servers, gateway, sandbox, scenario)),
        jobs ?? RUNS[run].jobs,
      );
      ofRun.forEach((key, at) => results.set(key, measured[at]));
    }
    await retryRegressions(keys, results, (run, target, one) =>
      measure(run, target, servers, gateway, sandbox, one, `retry-${one}`),
    );
  } finally {
    await servers.stop();
    rmSync(sandbox, { recursive: true, force: true });
  }
  report(keys, results);
  if (why) explain(keys, results);
  return verdictLines(keys, results, strict);
}

/**
 * A scenario that would count as a regression runs once more, on its own: the suite's own short waits
 * (e.g. 500 ms for a stateless server's logging call) lose to a loaded machine, directly and through the
 * gateway alike. A real regression fails twice; a pass on the second try is reported.
 */
async function retryRegressions(keys, results, measureOne) {
  for (const key of keys) {
    const [run, target] = key.split(" ");
    for (const { scenario } of judge(run, target, results).regressions) {
      const again = (await measureOne(run, target, scenario)).verdicts.get(scenario);
      if (again?.pass !== true) continue;
      results.get(key).verdicts.set(scenario, again);
      process.stdout.write(`retried ${key} ${scenario}: passes on its own\n`);
    }
  }
}

/** Every failing scenario's failed checks, per target. */
function explain(keys, results) {
  for (const key of keys) {
    for (const [scenario, verdict] of results.get(key).verdicts) {
      if (!verdict.pass) process.stdout.write(`why ${key} ${scenario}: ${verdict.why}\n`);
    }
  }
}

/** SUMMARY keys are `<target>` for the 0.1.16 run (as before runs existed) and `<run> <target>` for the others. */
function verdictLines(keys, results, strict) {
  let failed = false;
  const summary = {};
  for (const key of keys) {
    const [run, target] = key.split(" ");
    const { regressions, stale } = judge(run, target, results);
    const { verdicts } = results.get(key);
    const passed = [...verdicts.values()].filter((verdict) => verdict.pass).length;
    summary[run === "0.1.16" ? target : key] = { passed, of: verdicts.size };
    for (const { scenario, why } of regressions) process.stdout.write(`REGRESSION ${key} ${scenario}: ${why}\n`);
    for (const scenario of stale) process.stdout.write(`now passes (drop from baseline) ${key} ${scenario}\n`);
    failed ||= regressions.length > 0 || (strict && stale.length > 0);
  }
  process.stdout.write(`SUMMARY ${JSON.stringify(summary)}\n`);
  process.stdout.write(failed ? "Gateway conformance: REGRESSION\n" : "Gateway conformance: baseline holds\n");
  return failed ? 1 : 0;
}

process.exit(await main());
