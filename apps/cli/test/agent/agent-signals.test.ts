/**
 * `indusr -p` goes through the same teardown as every other command: a
 * signal during start-up or during an MCP call ends it with 128+signal and,
 * within 3 s, no process of the session is left (a server that ignores stdin
 * EOF and SIGTERM, and its grandchild, included).
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, say, startFakeModel, type FakeModelServer } from "./fake-model/fake-model-server";
import { agentSandbox, alive, removeBinSnapshot, startAgent, waitUntil, type AgentSandbox } from "./support/agent-cli";

jest.setTimeout(60_000);

const STUBBORN = path.join(__dirname, "..", "fixtures", "stubborn-server.mjs");
const CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

let fake: FakeModelServer | undefined;
let sandbox: AgentSandbox;
beforeEach(() => {
  sandbox = agentSandbox();
});
afterAll(() => removeBinSnapshot());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  sandbox.cleanup();
});

async function signalAgent(phase: "start-up" | "call", signal: keyof typeof CODES): Promise<void> {
  fake = await startFakeModel({ script: [callTool("stubborn__hang", {}), say("never reached")] });
  const row = {
    command: process.execPath,
    args: [STUBBORN, `dir=${sandbox.root}`, "name=stubborn", ...(phase === "start-up" ? ["init-delay=20000"] : [])],
  };
  const mcp = sandbox.mcpConfig({ stubborn: row });
  const agent = startAgent(
    [
      "-p",
      "call it",
      "--mcp",
      mcp,
      "--allow",
      "stubborn__hang",
      "--provider",
      "openai",
      "--base-url",
      fake.baseUrl,
      "--model",
      "fake-model",
    ],
    sandbox,
  );
  const marker = path.join(sandbox.root, phase === "start-up" ? "stubborn.initialize" : "stubborn.called");
  await waitUntil(() => fs.existsSync(marker), 30_000, marker);
  const pids = fs.readFileSync(path.join(sandbox.root, "stubborn.pids"), "utf8").trim().split(" ").map(Number);
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
