// Agent overhead per tool-call turn: `indusr -p` against a scripted model
// that calls everything__echo N times, versus a bare fetch + MCP loop doing
// the same HTTP and MCP calls (bare-loop.mjs). Both are timed on the model
// server's side, as the gap between the end of one answer and the arrival of
// the next request, in interleaved runs; startup is not counted.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, QUICK, ensureBuilt, here, serverEntry, summary, tempDir } from "./support.mjs";
import { startSseModel } from "./sse-model.mjs";

ensureBuilt();
const TURNS = QUICK ? 8 : 25;
const RUNS = QUICK ? 2 : 5;
const everything = serverEntry("server-everything");
const root = tempDir("indusr-turn-bench-");
const config = path.join(root, "mcp.json");
fs.writeFileSync(
  config,
  JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } }),
);
const env = { PATH: process.env.PATH, HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg"), NO_COLOR: "1" };

/** Runs a child to completion without blocking this process (the model server lives here). */
function run(argv, options) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.resume();
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

async function agentRun() {
  const model = await startSseModel({ toolTurns: TURNS, toolName: "everything__echo", toolInput: { message: "hi" } });
  const argv = [BIN, "-p", "go", "--mcp", config, "--allow", "everything__*", "--max-turns", String(TURNS + 2)];
  const r = await run([...argv, "--base-url", model.baseUrl, "--model", "m", "--session-dir", path.join(root, "s")], {
    env,
    cwd: root,
  });
  await model.close();
  if (r.status !== 0) throw new Error(`indusr failed: ${r.stderr}`);
  return { gaps: model.gaps(), request: model.requests()[1] };
}

async function bareRun() {
  const model = await startSseModel({ toolTurns: TURNS, toolName: "everything__echo", toolInput: { message: "hi" } });
  const r = await run([path.join(here, "bare-loop.mjs"), model.baseUrl, everything], { env, cwd: here });
  await model.close();
  if (r.status !== 0) throw new Error(`bare loop failed: ${r.stderr}`);
  return { gaps: model.gaps(), request: model.requests()[1] };
}

const agent = [];
const bare = [];
let agentBytes = 0;
let bareBytes = 0;
for (let run = 0; run < RUNS; run++) {
  const a = await agentRun();
  const b = await bareRun();
  agent.push(...a.gaps);
  bare.push(...b.gaps);
  agentBytes = JSON.stringify(a.request).length;
  bareBytes = JSON.stringify(b.request).length;
}
fs.rmSync(root, { recursive: true, force: true });
const A = summary(agent);
const B = summary(bare);
console.log(`agent turn bench: ${TURNS} tool-call turns x ${RUNS} interleaved runs${QUICK ? " (BENCH_QUICK)" : ""}`);
console.log(
  `  bare fetch + MCP loop : median ${B.median.toFixed(1)} ms per turn (p90 ${B.p90.toFixed(1)}), request ${bareBytes} B`,
);
console.log(
  `  indusr -p             : median ${A.median.toFixed(1)} ms per turn (p90 ${A.p90.toFixed(1)}), request ${agentBytes} B`,
);
console.log(
  `  agent overhead        : ${(A.median - B.median).toFixed(1)} ms per turn (goal <= 15 ms), ratio ${(A.median / B.median).toFixed(2)}x`,
);
