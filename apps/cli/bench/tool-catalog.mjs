// Prompt bytes of the tool catalog the model is sent on every turn, with 3
// and with 20 mounted servers (server-everything), before deferral (every
// MCP definition sent: a budget nothing exceeds) and after (the default
// budget, 10% of a 128k context window: MCP tools go behind saas-action).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, QUICK, ensureBuilt, serverEntry, tempDir } from "./support.mjs";
import { startSseModel } from "./sse-model.mjs";

ensureBuilt();
const COUNTS = QUICK ? [3, 8] : [3, 20];
const everything = serverEntry("server-everything");
const root = tempDir("indusr-catalog-bench-");
const env = { PATH: process.env.PATH, HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg"), NO_COLOR: "1" };

function run(argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { env, cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.resume();
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

async function firstRequest(servers, budget) {
  const config = path.join(root, `mcp-${servers}.json`);
  const rows = Object.fromEntries(
    Array.from({ length: servers }, (_, i) => [`ev${i}`, { command: process.execPath, args: [everything, "stdio"] }]),
  );
  fs.writeFileSync(config, JSON.stringify({ mcpServers: rows }));
  const model = await startSseModel({ toolTurns: 0 });
  const budgetArgs = budget === undefined ? [] : ["--mcp-tool-budget", String(budget)];
  const r = await run([
    BIN,
    "-p",
    "hi",
    "--mcp",
    config,
    ...budgetArgs,
    "--base-url",
    model.baseUrl,
    "--model",
    "m",
    "--session-dir",
    path.join(root, "s"),
  ]);
  await model.close();
  if (r.status !== 0) throw new Error(`indusr failed: ${r.stderr}`);
  const request = model.requests()[0];
  return {
    tools: request.tools.length,
    toolBytes: Buffer.byteLength(JSON.stringify(request.tools)),
    systemBytes: Buffer.byteLength(
      request.messages
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join(""),
    ),
  };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log("tool catalog bench: bytes of tool definitions + briefing in the first model request");
for (const servers of COUNTS) {
  const before = await firstRequest(servers, 100_000_000);
  const after = await firstRequest(servers, undefined);
  const total = (x) => x.toolBytes + x.systemBytes;
  console.log(
    `  ${String(servers).padStart(2)} servers: before ${before.tools} tools, ${kb(before.toolBytes)} + briefing ${kb(before.systemBytes)} = ${kb(total(before))}` +
      ` | after ${after.tools} tools, ${kb(after.toolBytes)} + briefing ${kb(after.systemBytes)} = ${kb(total(after))}` +
      ` | ratio ${(total(after) / total(before)).toFixed(2)}`,
  );
}
fs.rmSync(root, { recursive: true, force: true });
