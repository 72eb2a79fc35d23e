#!/usr/bin/env node
// The official MCP conformance suite's SERVER scenarios against `indusr mcp
// serve --http` (the BUILT cli), with provider-host's conformance box mounted
// over Streamable HTTP (packages/provider-host/test/fixtures/host-http.mjs),
// all on 127.0.0.1 with a private HOME. The suite needs Node 22, fetched by npx.
//
//   node conformance/run-server.mjs legacy       suite 0.1.16, active scenarios, gated by server-0.1.16.yml
//   node conformance/run-server.mjs legacy-0.2   suite 0.2.0-alpha.12, active (2025) scenarios, gated by server-0.2-legacy.yml
//   node conformance/run-server.mjs modern       suite 0.2.0-alpha.12, --requirements 2026-07-28, gated by server-2026.yml
//   node conformance/run-server.mjs <run> --scenario <name>   one scenario, ungated
//
// Exits with the suite's exit code: non-zero on a failure not in the baseline,
// or on a baseline entry that now passes. Reasons: conformance/server-baseline.md.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const INDUSR = join(here, "..", "dist", "indusr.js");
const BOX_HOST = join(here, "..", "..", "..", "packages", "provider-host", "test", "fixtures", "host-http.mjs");
const RUNS = {
  legacy: { version: "0.1.16", args: [], baseline: "server-0.1.16.yml" },
  "legacy-0.2": { version: "0.2.0-alpha.12", args: [], baseline: "server-0.2-legacy.yml" },
  modern: { version: "0.2.0-alpha.12", args: ["--requirements", "2026-07-28"], baseline: "server-2026.yml" },
};

const [runName = "legacy", ...rest] = process.argv.slice(2);
const run = RUNS[runName];
if (run === undefined) {
  process.stderr.write(`unknown run ${runName}; one of ${Object.keys(RUNS).join(", ")}\n`);
  process.exit(2);
}
const scenario = rest[0] === "--scenario" ? rest[1] : undefined;

const children = [];
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Spawns a process and resolves with the first match of `pattern` in its stdout or stderr. */
function start(args, env, pattern) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    const onLine = (line) => {
      seen += `${line}\n`;
      const match = pattern.exec(line);
      if (match) resolve(match[1]);
    };
    createInterface({ input: child.stdout }).on("line", onLine);
    createInterface({ input: child.stderr }).on("line", onLine);
    child.once("exit", (code) => reject(new Error(`${args[0]} exited ${code}: ${seen}`)));
  });
}

const sandbox = mkdtempSync(join(tmpdir(), "indusr-conformance-"));
const env = { PATH: process.env.PATH, HOME: join(sandbox, "home"), XDG_CONFIG_HOME: join(sandbox, "xdg") };
for (const dir of [env.HOME, env.XDG_CONFIG_HOME, join(sandbox, "project")]) mkdirSync(dir, { recursive: true });
let code;
/** The suite talks to what is mounted at once: the gateway waits for it however loaded the machine is. */
const WAIT = ["--boot-wait", "120000"];

try {
  const boxUrl = await start([BOX_HOST, "conformance", "0"], process.env, /^(http:\S+)$/);
  const config = join(sandbox, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { box: { url: boxUrl } } }));
  const url = await start(
    [
      INDUSR,
      "mcp",
      "serve",
      "--http",
      "--port",
      "0",
      "--profile",
      "survey",
      ...WAIT,
      "--mcp",
      config,
      "-C",
      join(sandbox, "project"),
    ],
    env,
    /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
  );
  const suite =
    scenario !== undefined ? ["--scenario", scenario] : [...run.args, "--expected-failures", join(here, run.baseline)];
  const args = [
    "-y",
    "-p",
    "node@22",
    "-p",
    `@modelcontextprotocol/conformance@${run.version}`,
    "conformance",
    "server",
  ];
  args.push("--url", url, ...suite);
  process.stdout.write(`$ npx ${args.join(" ")}\n`);
  code = await new Promise((resolve) => {
    // From the sandbox, outside the workspace: npx in a project first reads its node_modules tree (~2.5 s of CPU).
    const child = spawn("npx", args, {
      cwd: sandbox,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, npm_config_yes: "true" },
    });
    child.on("exit", (exitCode) => resolve(exitCode ?? 1));
    child.on("error", (error) => {
      process.stderr.write(`could not run npx: ${error.message}\n`);
      resolve(1);
    });
  });
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(sandbox, { recursive: true, force: true });
}
process.exit(code);
