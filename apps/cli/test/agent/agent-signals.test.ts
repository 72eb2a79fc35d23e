/**
 * `indusr -p` goes through the same teardown as every other command: a
 * signal during start-up or during an MCP call ends it with 128+signal and,
 * within 3 s, no process of the session is left (a server that ignores stdin
 * EOF and SIGTERM, and its grandchild, included).
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, say } from "./fake-model/fake-model-server";
import { waitFor } from "@indus/testkit";
import { alive, startAgent } from "./support/agent-cli";
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
  await waitFor(marker, () => fs.existsSync(marker));
  const pids = fs.readFileSync(path.join(t.sandbox.root, "stubborn.pids"), "utf8").trim().split(" ").map(Number);
  agent.child.kill(signal);
  const done = await agent.done;
  expect(done.code).toBe(CODES[signal]);
  // The stubborn server never ends by itself: the agent and its servers being gone at all is the proof.
  const all = [agent.child.pid!, ...pids];
  try {
    await waitFor("the agent and its servers gone", () => !all.some(alive));
  } finally {
    for (const pid of all.filter(alive)) process.kill(pid, "SIGKILL");
  }
}

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("indusr -p and %s", (signal) => {
  it.each(["start-up", "call"] as const)("during %s: 128+signal, nothing left", (phase) => signalAgent(phase, signal));
});
