/**
 * On a real terminal (tmux): a mounted server (2025 era, stdio) asks a form
 * question mid-call, then withdraws it. The question leaves the prompt line,
 * the user is told, and the call's result reaches the model.
 */
import path from "node:path";
import { FIXTURES } from "@indus/testkit";
import { callTool, lastToolResults, say } from "./fake-model/fake-model-server";
import { useAgentTest } from "./support/agent-test";

jest.setTimeout(120_000);

const t = useAgentTest();

const askerServer = {
  command: process.execPath,
  args: [path.join(FIXTURES, "logging-asker.mjs"), "legacy-only"],
  protocol: "legacy",
};

test("a question the server withdraws leaves the prompt line, and the user is told", async () => {
  const fake = await t.model([
    callTool("asker__ask_then_withdraw", { ms: 1_500 }),
    (request) => say(`tool said: ${lastToolResults(request)[0]!.text}`),
  ]);
  const mcp = t.sandbox.mcpConfig({ asker: askerServer });
  const tmux = t.terminal(["--mcp", mcp, "--allow", "asker__*"], fake);
  await tmux.waitFor(/asker ✓/);
  await tmux.waitFor(/^›\s*$/m);

  tmux.type("ask me, then change your mind");
  await tmux.waitFor(/◆ asker asks for input/);
  await tmux.waitFor(/fill in the form\?/);
  const screen = await tmux.waitFor(/◆ asker withdrew its question.*nothing was sent/);
  expect(screen).toContain("Still there?");
  await tmux.waitFor(/tool said: withdrawn/);
  // The prompt line is the session's again: a typed line is a new task, not an answer to the form.
  await tmux.waitFor(/^›\s*$/m);
});
