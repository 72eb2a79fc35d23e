// `indusr mcp status` vs `claude mcp list` (Claude Code, from npm) with the
// same three real servers, in the same run. Both connect every server; indusr
// also lists each server's tools. Run: node bench/mcp-status.mjs
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, QUICK, ensureBuilt, fmt, serverEntry, tempDir, timeInterleaved } from "./support.mjs";

const CLAUDE_VERSION = "2.1.332";

ensureBuilt();
const work = tempDir("indusr-bench-status-");
const home = path.join(work, "home");
const project = path.join(work, "project");
fs.mkdirSync(home);
fs.mkdirSync(project);
const servers = {
  everything: { command: process.execPath, args: [serverEntry("server-everything"), "stdio"] },
  memory: {
    command: process.execPath,
    args: [serverEntry("server-memory")],
    env: { MEMORY_FILE_PATH: path.join(work, "memory.jsonl") },
  },
  fs: { command: process.execPath, args: [serverEntry("server-filesystem"), project] },
};
const indusConfig = path.join(work, "mcp.json");
fs.writeFileSync(indusConfig, JSON.stringify({ servers }));
fs.writeFileSync(
  path.join(home, ".claude.json"),
  JSON.stringify({
    mcpServers: Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, { type: "stdio", ...v }])),
  }),
);

/** Claude Code ships a native binary per platform; install it once into a cache folder. */
function claudeBinary() {
  const cache = path.join(os.tmpdir(), `indus-bench-claude-${CLAUDE_VERSION}`);
  const native = path.join(
    cache,
    "node_modules",
    "@anthropic-ai",
    `claude-code-${process.platform}-${process.arch}`,
    "claude",
  );
  if (!fs.existsSync(native)) {
    fs.mkdirSync(cache, { recursive: true });
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        cache,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@anthropic-ai/claude-code@${CLAUDE_VERSION}`,
      ],
      { encoding: "utf8" },
    );
    if (npm.status !== 0 || !fs.existsSync(native))
      return { error: (npm.stderr || "no native binary for this platform").trim().split("\n").pop() };
  }
  return { path: native };
}

const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" };
const commands = [
  {
    name: "indusr mcp status",
    argv: [process.execPath, BIN, "mcp", "status", "--mcp", indusConfig],
    options: { env, cwd: project },
  },
];
const claude = claudeBinary();
if (claude.path)
  commands.push({ name: "claude mcp list", argv: [claude.path, "mcp", "list"], options: { env, cwd: project } });
else console.log(`claude mcp list: skipped (${claude.error})`);

const runs = QUICK ? 3 : 10;
const loadBefore = os.loadavg()[0].toFixed(1);
const results = timeInterleaved(commands, runs, 1);
console.log(
  `three stdio servers (server-everything, server-memory, server-filesystem), ${runs} interleaved runs each ` +
    `(median, p90; load ${loadBefore} -> ${os.loadavg()[0].toFixed(1)})`,
);
for (const [name, s] of results)
  console.log(`  ${name.padEnd(20)} ${fmt(s.median).padStart(9)} ${fmt(s.p90).padStart(9)}`);
if (results.has("claude mcp list")) {
  const ratio = results.get("claude mcp list").median / results.get("indusr mcp status").median;
  console.log(
    `  indusr is ${ratio.toFixed(2)}x as fast as Claude Code ${CLAUDE_VERSION} (claude median / indusr median)`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
