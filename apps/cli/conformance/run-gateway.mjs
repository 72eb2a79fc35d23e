#!/usr/bin/env node
// Does the gateway carry all of MCP? Runs every SERVER scenario of the official
// conformance suite (0.1.16, active and pending) against two servers, each
// measured directly and through `indusr mcp serve --http --names as-is` (the
// BUILT cli, no built-in tools) with the server mounted over stdio and by URL:
//
//   reference:  packages/testkit/fixtures/conformance-reference.mjs (32/32 directly)
//   everything: @modelcontextprotocol/server-everything
//
// A scenario fails through the gateway as a REGRESSION when it passes against
// the same server directly (same run) and gateway-baseline.json does not list
// it for that target with a reason. A direct target regresses when a scenario
// fails that its baseline does not list. Exits 1 on a regression; baseline
// entries that now pass are reported, and fail the run only under --strict.
//
//   node conformance/run-gateway.mjs [--target reference:gateway-url,...] [--scenario <name>] [--strict] [--why]
//
// --why prints every failing check's message, baselined or not.
//
// Everything listens on 127.0.0.1; the suite needs Node 22, fetched by npx.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const VERSION = "0.1.16";
const here = dirname(fileURLToPath(import.meta.url));
const INDUSR = join(here, "..", "dist", "indusr.js");
const LOOPBACK = join(here, "..", "..", "..", "packages", "testkit", "fixtures", "loopback.cjs");
const REFERENCE = join(here, "..", "..", "..", "packages", "testkit", "fixtures", "conformance-reference.mjs");
const EVERYTHING = join(here, "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const BASELINE = JSON.parse(readFileSync(join(here, "gateway-baseline.json"), "utf8"));
const SERVERS = ["reference", "everything"];
const MODES = ["direct", "gateway-stdio", "gateway-url"];
const ALL_TARGETS = SERVERS.flatMap((server) => MODES.map((mode) => `${server}:${mode}`));

const children = new Set();
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

function parseArgs(argv) {
  const value = (flag) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const targets = value("--target")?.split(",") ?? ALL_TARGETS;
  const unknown = targets.filter((target) => !ALL_TARGETS.includes(target));
  if (unknown.length > 0) throw new Error(`unknown target ${unknown.join(", ")}; one of ${ALL_TARGETS.join(", ")}`);
  return { targets, scenario: value("--scenario"), strict: argv.includes("--strict"), why: argv.includes("--why") };
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

/** The two servers: how to spawn each over stdio, and each one running over HTTP. */
async function startServers(env) {
  const reference = start([REFERENCE, "http"], env, /listening at (http:\S+)/);
  const port = await freePort();
  const everything = start(
    ["-r", LOOPBACK, EVERYTHING, "streamableHttp"],
    { ...env, PORT: String(port) },
    /(listening on port)/i,
  );
  await Promise.all([reference.ready, everything.ready]);
  return {
    reference: { url: await reference.ready, stdio: { command: process.execPath, args: [REFERENCE] } },
    everything: {
      url: `http://127.0.0.1:${port}/mcp`,
      stdio: { command: process.execPath, args: [EVERYTHING, "stdio"] },
    },
    stop: () => Promise.all([stop(reference.child), stop(everything.child)]),
  };
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
  return flags;
}

async function startGateway(sandbox, env, flags, mount) {
  const config = join(sandbox, `mcp-${process.hrtime.bigint()}.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { server: mount } }));
  const args = [INDUSR, "mcp", "serve", "--http", "--port", "0", ...flags, "--mcp", config];
  const gateway = start([...args, "-C", join(sandbox, "project")], env, /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  return { url: await gateway.ready, stop: () => stop(gateway.child) };
}

/** Runs the suite once against `url`; resolves with each scenario's checks. */
async function runSuite(url, outDir, scenario) {
  const args = ["-y", "-p", "node@22", "-p", `@modelcontextprotocol/conformance@${VERSION}`, "conformance", "server"];
  args.push("--url", url, "-o", outDir, ...(scenario ? ["--scenario", scenario] : ["--suite", "all"]));
  await new Promise((resolve) => {
    const child = spawn("npx", args, {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, npm_config_yes: "true" },
    });
    child.stderr.resume();
    child.once("close", resolve);
    child.once("error", (error) => {
      process.stderr.write(`could not run npx: ${error.message}\n`);
      resolve();
    });
  });
  return readChecks(outDir);
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

async function measure(target, servers, gateway, sandbox, scenario) {
  const [server, mode] = target.split(":");
  const outDir = join(sandbox, "results", target.replace(":", "-"));
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  if (mode === "direct") return finish(await runSuite(servers[server].url, outDir, scenario), started);
  const mount = mode === "gateway-url" ? { url: servers[server].url } : servers[server].stdio;
  const running = await gateway(mount);
  try {
    return finish(await runSuite(running.url, outDir, scenario), started);
  } finally {
    await running.stop();
  }
}

function finish(checks, started) {
  const verdicts = new Map([...checks].map(([name, list]) => [name, verdictOf(list)]));
  return { verdicts, seconds: (Date.now() - started) / 1000 };
}

/** Compares one target's verdicts with the direct run of its server and with the baseline. */
function judge(target, results) {
  const [server, mode] = target.split(":");
  const allowed = BASELINE.targets[target] ?? {};
  const direct = results.get(`${server}:direct`);
  const regressions = [];
  const stale = [];
  for (const [scenario, verdict] of results.get(target).verdicts) {
    const passesDirectly = mode === "direct" || direct === undefined || direct.verdicts.get(scenario)?.pass === true;
    if (verdict.pass && allowed[scenario] !== undefined) stale.push(scenario);
    if (!verdict.pass && passesDirectly && allowed[scenario] === undefined)
      regressions.push({ scenario, why: verdict.why });
  }
  return { regressions, stale };
}

function report(targets, results) {
  const scenarios = [...new Set(targets.flatMap((target) => [...results.get(target).verdicts.keys()]))];
  const width = Math.max(...scenarios.map((name) => name.length));
  const lines = [`${"scenario".padEnd(width)}  ${targets.join("  ")}`];
  for (const scenario of scenarios) {
    const cells = targets.map((target) => {
      const verdict = results.get(target).verdicts.get(scenario);
      return (verdict === undefined ? "-" : verdict.pass ? "pass" : "FAIL").padEnd(target.length);
    });
    lines.push(`${scenario.padEnd(width)}  ${cells.join("  ")}`);
  }
  for (const target of targets) {
    const { verdicts, seconds } = results.get(target);
    const passed = [...verdicts.values()].filter((verdict) => verdict.pass).length;
    lines.push(`${target}: ${passed}/${verdicts.size} passed (${seconds.toFixed(1)} s)`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main() {
  const { targets, scenario, strict, why } = parseArgs(process.argv.slice(2));
  const sandbox = mkdtempSync(join(tmpdir(), "indusr-gateway-conformance-"));
  const env = { PATH: process.env.PATH, HOME: join(sandbox, "home"), XDG_CONFIG_HOME: join(sandbox, "xdg") };
  for (const dir of [env.HOME, env.XDG_CONFIG_HOME, join(sandbox, "project")]) mkdirSync(dir, { recursive: true });
  const servers = await startServers(env);
  const flags = await gatewayFlags(env);
  process.stdout.write(`gateway: indusr mcp serve --http ${flags.join(" ")}\n`);
  const results = new Map();
  try {
    for (const target of targets) {
      const gateway = (mount) => startGateway(sandbox, env, flags, mount);
      results.set(target, await measure(target, servers, gateway, sandbox, scenario));
    }
  } finally {
    await servers.stop();
    rmSync(sandbox, { recursive: true, force: true });
  }
  report(targets, results);
  if (why) explain(targets, results);
  return verdictLines(targets, results, strict);
}

/** Every failing scenario's failed checks, per target. */
function explain(targets, results) {
  for (const target of targets) {
    for (const [scenario, verdict] of results.get(target).verdicts) {
      if (!verdict.pass) process.stdout.write(`why ${target} ${scenario}: ${verdict.why}\n`);
    }
  }
}

function verdictLines(targets, results, strict) {
  let failed = false;
  const summary = {};
  for (const target of targets) {
    const { regressions, stale } = judge(target, results);
    const { verdicts } = results.get(target);
    summary[target] = { passed: [...verdicts.values()].filter((verdict) => verdict.pass).length, of: verdicts.size };
    for (const { scenario, why } of regressions) process.stdout.write(`REGRESSION ${target} ${scenario}: ${why}\n`);
    for (const scenario of stale) process.stdout.write(`now passes (drop from baseline) ${target} ${scenario}\n`);
    failed ||= regressions.length > 0 || (strict && stale.length > 0);
  }
  process.stdout.write(`SUMMARY ${JSON.stringify(summary)}\n`);
  process.stdout.write(failed ? "Gateway conformance: REGRESSION\n" : "Gateway conformance: baseline holds\n");
  return failed ? 1 : 0;
}

process.exit(await main());
