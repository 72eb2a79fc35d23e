/**
 * The interactive session on a real terminal (tmux): streamed answers, a
 * remote MCP tool call, the permission question, Ctrl-C interrupting a running
 * `bash` and killing its process group, slash commands, history, and Ctrl-C
 * twice to leave. The model is the fake server; the tools and servers are real.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, lastToolResults, say } from "./fake-model/fake-model-server";
import { waitFor } from "@indus/testkit";
import { alive, everythingServer } from "./support/agent-cli";
import { useAgentTest } from "./support/agent-test";
import { waitForPrompt } from "./support/tmux";

jest.setTimeout(180_000);

const t = useAgentTest();

test("an interactive session: streaming, MCP tools, permissions, Ctrl-C, slash commands, history", async () => {
  const fake = await t.model([
    // 1. A remote tool, then a streamed answer.
    callTool("everything__echo", { message: "from tmux" }, { text: "Echoing." }),
    (request) => say(`The echo came back as <${lastToolResults(request)[0]?.text}>.`, { chunkDelayMs: 30 }),
    // 2. A mutating tool: the user is asked and answers "always".
    callTool("write", { path: "tmux.txt", content: "typed on a terminal\n" }),
    say("Wrote tmux.txt."),
    // 3. Plan mode: the plan is shown, approved on the terminal, then carried out.
    callTool("enter_plan_mode", {}),
    callTool("exit_plan_mode", { plan: "# Tidy up\n1. write tidy.txt" }),
    (request) =>
      lastToolResults(request)[0]?.text.includes("approved the plan")
        ? callTool("write", { path: "tidy.txt", content: "tidy\n" })
        : say("not approved"),
    say("Plan carried out."),
    // 4. A long bash the user interrupts.
    callTool("bash", { command: "sleep 1000 & echo $! > sleep.pid; wait" }),
    // 5. After the interrupt the conversation goes on.
    (request) =>
      say(
        `Noted: ${request.messages.some((m) => m.toolResults.some((r) => r.text.startsWith("Interrupted"))) ? "you stopped the sleep" : "?"}.`,
      ),
  ]);
  const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
  const tmux = t.terminal(["--mcp", mcp], fake);
  const banner = await waitForPrompt(tmux);
  expect(banner).toMatch(/indusr \S+ · openai-compatible fake-model · \d+ tools · everything ✓/);
  expect(banner).toContain("/help for commands");

  // 1. Remote tool call (MCP tools ask, like any tool that is not known to be read-only) and a streamed answer.
  tmux.type("please echo something");
  await tmux.waitFor(
    /\? allow everything__echo from tmux\s+\[y\]es once · \[a\]lways everything__echo here · \[s\]erver: all of everything here · \[n\]o ›/,
  );
  tmux.type("y", false);
  await tmux.waitFor(/The echo came back as <Echo: from tmux>\./);
  let screen = await waitForPrompt(tmux);
  expect(screen).toContain("● everything__echo from tmux");
  expect(screen).toContain("⎿ Echo: from tmux");
  expect(screen).toMatch(/2 turns · \S+ in \/ \S+ out/);

  // 2. The permission question; "a" approves write from now on in this project (one key, no Enter).
  tmux.type("write a file");
  await tmux.waitFor(/\? allow write tmux\.txt\s+\[y\]es once · \[a\]lways write here · \[n\]o ›/);
  tmux.type("a", false);
  await tmux.waitFor(/Wrote tmux\.txt\./);
  await waitForPrompt(tmux);
  expect(fs.readFileSync(path.join(t.sandbox.cwd, "tmux.txt"), "utf8")).toBe("typed on a terminal\n");

  // 3. Plan mode with approval on the terminal.
  tmux.type("plan a tidy-up");
  await tmux.waitFor(/◆ plan mode on: only read-only tools run/);
  screen = await tmux.waitFor(/\? approve this plan\? \[y\]es · \[n\]o, keep planning ›/);
  expect(screen).toMatch(/Proposed plan:\n\s+# Tidy up\n\s+1\. write tidy\.txt/);
  tmux.type("y");
  await tmux.waitFor(/Plan carried out\./);
  screen = await waitForPrompt(tmux);
  expect(screen).toMatch(/◆ plan approved · saved to \S+\/plans\/\S+-tidy-up\.md/);
  expect(fs.readFileSync(path.join(t.sandbox.cwd, "tidy.txt"), "utf8")).toBe("tidy\n");

  // 4. Ctrl-C mid-tool cancels bash and kills its process group.
  tmux.type("sleep for a long time");
  await tmux.waitFor(/\? allow bash sleep 1000/);
  tmux.type("y", false);
  const pidFile = path.join(t.sandbox.cwd, "sleep.pid");
  await waitFor(
    "sleep.pid written",
    () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim().length > 0,
  );
  const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
  expect(alive(pid)).toBe(true);
  tmux.keys("C-c");
  await tmux.waitFor(/⏹ interrupted/);
  // `sleep 1000` never ends by itself: its being gone at all is the proof.
  await waitFor(`sleep ${pid} gone`, () => !alive(pid));
  await waitForPrompt(tmux);

  // 5. The session goes on, and the model saw the interrupted call.
  tmux.type("what happened?");
  await tmux.waitFor(/Noted: you stopped the sleep\./);
  await waitForPrompt(tmux);

  // Slash commands.
  tmux.type("/tools");
  screen = await tmux.waitFor(/\d+ tools\s*\n/);
  expect(screen).toMatch(/everything__echo\s+server\s+\[everything\] Echoes back/);
  expect(screen).toMatch(/\nread\s+built-in\s+✓/);
  expect(screen).toMatch(/\nbash\s+built-in/);
  await waitForPrompt(tmux);

  tmux.type("/mcp");
  screen = await tmux.waitFor(/\/mcp reconnect <server>/);
  expect(screen).toMatch(/✓ everything\s+stdio\s+\d+ tools/);
  tmux.type("/mcp disable everything");
  await tmux.waitFor(/everything disabled for this session \(\d+ tools now\)/);
  tmux.type("/mcp enable everything");
  await tmux.waitFor(/everything enabled for this session/);
  tmux.type("/mcp reconnect everything");
  screen = await tmux.waitFor(/reconnecting everything…\n(✓|✗) everything/);
  expect(screen).toMatch(/reconnecting everything…\n✓ everything\s+stdio\s+\d+ tools/);
  await waitForPrompt(tmux);

  tmux.type("/help");
  await tmux.waitFor(/\/exit\s+Leave/);
  await waitForPrompt(tmux);

  // History: Up recalls the previous line.
  tmux.keys("Up");
  await tmux.waitFor(/›\s*\/help\s*$/m);
  tmux.keys("C-c"); // clears the recalled line
  await waitForPrompt(tmux);

  // Ctrl-C twice at an empty prompt leaves.
  tmux.keys("C-c");
  await tmux.waitFor(/press Ctrl-C again to exit/);
  tmux.keys("C-c");
  screen = await tmux.waitFor(/\[exited 0\]/);
  expect(screen).toMatch(/bye · \d+ turns · .* transcript \S+\.jsonl/);
  expect(fs.readFileSync(path.join(t.sandbox.home, ".indusvx", "history"), "utf8")).toContain(
    "please echo something\n",
  );
  expect(fake.remaining()).toBe(0);
});

test("-p on a terminal asks before a tool that may change things, and streams the answer", async () => {
  const fake = await t.model([
    callTool("write", { path: "asked.txt", content: "yes\n" }),
    callTool("write", { path: "denied.txt", content: "no\n" }),
    (request) => say(`Second call: ${lastToolResults(request)[0]?.text.slice(0, 30)}`, { chunkDelayMs: 20 }),
  ]);
  const tmux = t.terminal(["-p", "write two files"], fake);
  await tmux.waitFor(/\? allow write asked\.txt\s+\[y\]es once · \[a\]lways write here · \[n\]o ›/);
  tmux.type("y", false);
  await tmux.waitFor(/\? allow write denied\.txt/);
  tmux.type("n", false);
  const screen = await tmux.waitFor(/\[exited 0\]/);
  expect(screen).toContain("Second call: Refused: the user declined");
  expect(fs.readFileSync(path.join(t.sandbox.cwd, "asked.txt"), "utf8")).toBe("yes\n");
  expect(fs.existsSync(path.join(t.sandbox.cwd, "denied.txt"))).toBe(false);
});
