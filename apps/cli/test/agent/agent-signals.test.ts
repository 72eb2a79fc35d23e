/**
 * `indusr -p` goes through the same teardown as every other command: a
 * signal during start-up or during an MCP call ends it with 128+signal and,
 * within 3 s, no process of the session is left (a server that ignores stdin
 * EOF and SIGTERM, and its grandchild, included).
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, say } from "./fake-model/fake-model-server";
import { alive, startAgent, waitUntil } from "./support/agent-cli";
import { modelArgs, useAgentTest } from "./support/agent-test";

jest.setTimeout(60_000);

const STUBBORN = path.join(__dirname, "..", "fixtures", "stubborn-server.mjs");
const CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

const t = useAgentTest();

async function signalAgent(phase: "start-up" | "call", signal: keyof typeof CODES): Promise<void> {
  const fake = await t.model([callTool("stubborn__hang", {}), say("never reached")]);
  const row = {
    command: process.execPath,
    args: [STUBBORN, `dir=${t.sandbox.root}`, "name=stubborn", ...(phase === "start-up" ? ["init-delay=20000"] : [])],
  };
  const mcp = t.sandbox.mcpConfig({ stubborn: row });
  const agent = startAgent(["-p", "call it", "--mcp", mcp, "--allow", "stubborn__hang", ...modelArgs(fake)], t.sandbox);
  const marker = path.join(t.sandbox.root, phase === "start-up" ? "stubborn.initialize" : "stubborn.called");
  await waitUntil(() => fs.existsSync(marker), 30_000, marker);
  const pids = fs.readFileSync(path.join(t.sandbox.root, "stubborn.pids"), "utf8").trim().split(" ").map(Number);
  const sent = Date.now();
  agent.child.kill(signal);
  const done = await agent.done;
  const all = [agent.child.pid!, ...pids];
  while (all.some(alive) && Date.now() - sent < 3_000) await new Promise((resolve) => setTimeout(resolve, 25));
  const left = all.filter(alive);
  for (const pid of left) process.kill(pid, "SIGKILL");
  expect({ code: done.code, left }).toEqual({ code: CODES[signal], left: [] });
}

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("indusr -p and %s", (signal) => {
  it.each(["start-up", "call"] as const)("during %s: 128+signal, nothing left after 3 s", (phase) =>
    signalAgent(phase, signal),
  );
});
