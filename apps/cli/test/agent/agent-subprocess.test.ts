/**
 * The agent as a user runs it: the built `indusr` binary, the real deck,
 * real MCP servers (server-everything from the dev dependencies, and a
 * fixture server that crashes mid-call), and the fake model server scripting
 * the conversation over HTTP in both wire protocols.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, fail, lastToolResults, rateLimited, say, type Protocol } from "./fake-model/fake-model-server";
import { waitFor } from "@indus/testkit";
import { alive, crashyServer, events, everythingServer, runAgent, startAgent } from "./support/agent-cli";
import { modelArgs, useAgentTest } from "./support/agent-test";

jest.setTimeout(120_000);

const t = useAgentTest();

describe.each<Protocol>(["openai", "anthropic"])("over %s", (protocol) => {
  test("the model calls everything__echo on a mounted server-everything, gets the result, and answers", async () => {
    const server = await t.model([
      callTool("everything__echo", { message: "hello from the model" }, { text: "Let me try the echo tool." }),
      (request) => say(`The server answered: ${lastToolResults(request)[0]?.text}`),
    ]);
    const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
    const r = await runAgent(
      [
        "-p",
        "echo something",
        "--mcp",
        mcp,
        "--allow",
        "everything__*",
        "--output-format",
        "stream-json",
        ...modelArgs(server, protocol),
      ],
      t.sandbox,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const all = events(r.stdout);
    const start = all[0]!;
    expect(start).toMatchObject({ type: "session_start", provider: protocol });
    expect(start.servers).toEqual([expect.objectContaining({ id: "everything", phase: "ready" })]);
    const toolNames = (start.tools as { name: string; origin: string }[]).map((t) => t.name);
    expect(toolNames).toEqual(expect.arrayContaining(["read", "write", "bash", "everything__echo"]));
    expect(all.find((e) => e.type === "tool_result")).toMatchObject({
      name: "everything__echo",
      isError: false,
      content: "Echo: hello from the model",
    });
    expect(all.at(-1)).toMatchObject({
      type: "result",
      subtype: "success",
      result: "The server answered: Echo: hello from the model",
      turns: 2,
    });
    // The briefing was composed after attachment: it names the remote tool and carries the server's instructions.
    const first = server.requests[0]!;
    expect(first.protocol).toBe(protocol);
    expect(first.system).toContain("## everything (");
    expect(first.system).toContain("everything__echo");
    expect(first.system).toMatch(/Instructions from the server:\n\S/);
    expect(first.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read", "bash", "everything__echo"]));
    // And the whole session is on disk.
    const transcript = String(all.at(-1)!.transcript);
    expect(transcript.startsWith(t.sandbox.sessions)).toBe(true);
    expect(fs.readFileSync(transcript, "utf8")).toContain("Echo: hello from the model");
  });
});

test("a mutating call is refused without --allow, and runs with a matching --allow", async () => {
  const server = await t.model([
    callTool("write", { path: "out.txt", content: "written\n" }),
    callTool("everything__toggle-simulated-logging", {}),
    (request) => say(`Results: ${lastToolResults(request)[0]?.text.slice(0, 40)}`),
  ]);
  const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
  const refused = await runAgent(["-p", "write out.txt", "--mcp", mcp, ...modelArgs(server)], t.sandbox);
  expect(refused.code).toBe(0);
  expect(fs.existsSync(path.join(t.sandbox.cwd, "out.txt"))).toBe(false);
  expect(lastToolResults(server.requests[1]!)[0]!.text).toMatch(
    /^Refused: `write` is not known to be read-only.*--allow write or --yes/,
  );
  expect(lastToolResults(server.requests[2]!)[0]!.text).toMatch(/^Refused: `everything__toggle-simulated-logging`/);
  expect(refused.stderr).toContain("⎿ refused");
  expect(refused.stdout).toMatch(/^Results: Refused: `everything__toggle/);

  server.push(
    callTool("write", { path: "out.txt", content: "written\n" }),
    callTool("everything__toggle-simulated-logging", {}),
    say("done"),
  );
  const allowed = await runAgent(
    ["-p", "write out.txt", "--mcp", mcp, "--allow", "write,everything__*", ...modelArgs(server)],
    t.sandbox,
  );
  expect(allowed.code).toBe(0);
  expect(fs.readFileSync(path.join(t.sandbox.cwd, "out.txt"), "utf8")).toBe("written\n");
  expect(lastToolResults(server.requests[5]!)[0]!.text).not.toMatch(/^Refused/);
});

test("plan mode blocks write even when write is allowed; the proposed plan is saved", async () => {
  const server = await t.model([
    callTool("enter_plan_mode", {}),
    callTool("write", { path: "planned.txt", content: "x" }),
    callTool("exit_plan_mode", { plan: "# Create planned.txt\n\n1. write it" }),
    callTool("write", { path: "planned.txt", content: "x" }),
    say("Stopping with the plan."),
  ]);
  const planned = await runAgent(
    ["-p", "plan it", "--allow", "write", "--output-format", "stream-json", ...modelArgs(server)],
    t.sandbox,
  );
  expect(planned.code).toBe(0);
  expect(lastToolResults(server.requests[1]!)[0]!.text).toContain("Plan mode is ON");
  expect(lastToolResults(server.requests[2]!)[0]!.text).toMatch(/^Refused: plan mode is on/);
  expect(lastToolResults(server.requests[3]!)[0]!.text).toContain(
    "Nobody can approve plans in this non-interactive session",
  );
  expect(lastToolResults(server.requests[4]!)[0]!.text).toMatch(/^Refused: plan mode is on/);
  expect(fs.existsSync(path.join(t.sandbox.cwd, "planned.txt"))).toBe(false);
  const plan = events(planned.stdout).find((e) => e.type === "plan_mode" && e.planFile !== undefined)!;
  expect(String(plan.planFile)).toMatch(/\/plans\/[0-9a-z]+-create-planned-txt\.md$/);
  expect(fs.readFileSync(String(plan.planFile), "utf8")).toContain("1. write it");
});

test("Ctrl-C (SIGINT) mid-tool cancels the tool and kills its process group", async () => {
  const server = await t.model([
    callTool("bash", { command: "sleep 1000 & echo $! > sleep.pid; wait" }),
    say("never reached"),
  ]);
  const pidFile = path.join(t.sandbox.cwd, "sleep.pid");
  const agent = startAgent(["-p", "sleep a while", "--allow", "bash", ...modelArgs(server)], t.sandbox);
  await waitFor(
    "sleep.pid written",
    () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim().length > 0,
  );
  const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
  expect(alive(pid)).toBe(true);
  agent.child.kill("SIGINT");
  const done = await agent.done;
  expect(done.code).toBe(130);
  expect(done.stderr).toContain("interrupted; stopping running tools");
  // `sleep 1000` never ends by itself: its being gone at all is the proof.
  await waitFor(`sleep ${pid} gone`, () => !alive(pid));
});

test("a server that crashes mid-turn becomes a tool error the model sees, and the session goes on", async () => {
  const server = await t.model([
    callTool("crashy__crash", {}),
    callTool("everything__echo", { message: "still here" }),
    (request) => say(`Recovered: ${lastToolResults(request)[0]?.text}`),
  ]);
  const mcp = t.sandbox.mcpConfig({ crashy: crashyServer, everything: everythingServer });
  const r = await runAgent(
    [
      "-p",
      "crash it",
      "--mcp",
      mcp,
      "--allow",
      "crashy__*,everything__echo",
      "--output-format",
      "stream-json",
      ...modelArgs(server, "anthropic"),
    ],
    t.sandbox,
  );
  expect(r.code).toBe(0);
  const crash = lastToolResults(server.requests[1]!)[0]!;
  expect(crash.isError).toBe(true);
  expect(crash.text).toMatch(/crashy/);
  expect(crash.text).not.toMatch(/^Refused/);
  const all = events(r.stdout);
  expect(all.find((e) => e.type === "tool_result" && e.name === "crashy__crash")).toMatchObject({ isError: true });
  expect(all.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "Recovered: Echo: still here" });
});

test("a server that fails to start is reported in session_start and the session goes on", async () => {
  const server = await t.model([say("fine without it")]);
  const mcp = t.sandbox.mcpConfig({
    ghost: { command: path.join(t.sandbox.root, "no-such-binary") },
    everything: everythingServer,
  });
  const r = await runAgent(
    ["-p", "hi", "--mcp", mcp, "--output-format", "stream-json", ...modelArgs(server)],
    t.sandbox,
  );
  expect(r.code).toBe(0);
  const start = events(r.stdout)[0]!;
  const servers = start.servers as { id: string; phase: string; fault?: { kind: string; message: string } }[];
  expect(servers.find((s) => s.id === "everything")).toMatchObject({ phase: "ready" });
  const ghost = servers.find((s) => s.id === "ghost")!;
  expect(ghost.phase).toBe("faulted");
  expect(ghost.fault?.kind).toBeDefined();
  expect(server.requests[0]!.system).toMatch(/## ghost \(unavailable: /);
});

test("no key, or a provider that is not there: a clear error and no server is started", async () => {
  const marker = path.join(t.sandbox.root, "started");
  const mcp = t.sandbox.mcpConfig({ probe: { command: "sh", args: ["-c", `touch ${marker}; sleep 30`] } });
  const noKey = await runAgent(["-p", "hi", "--mcp", mcp], t.sandbox);
  expect(noKey.code).toBe(1);
  expect(noKey.stderr).toMatch(/^indusr: no API key: set OPENAI_API_KEY/);
  expect(fs.existsSync(marker)).toBe(false);

  const gone = await runAgent(
    ["-p", "hi", "--no-tools", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
    t.sandbox,
  );
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain("cannot reach the OpenAI-compatible API at http://127.0.0.1:9/v1");
});

test("a flooding result is capped, and the model pages the saved whole with read", async () => {
  let saved = "";
  const server = await t.model([
    callTool("crashy__flood", { lines: 20000 }),
    (request) => {
      const seen = lastToolResults(request)[0]!.text;
      saved = /full result is saved at (\S+?);/.exec(seen)?.[1] ?? "";
      return callTool("read", { path: saved, offset: 19999, limit: 2 });
    },
    (request) => say(`Tail: ${lastToolResults(request)[0]?.text}`),
  ]);
  const mcp = t.sandbox.mcpConfig({ crashy: crashyServer });
  const r = await runAgent(
    ["-p", "flood", "--mcp", mcp, "--allow", "crashy__flood", "--output-format", "stream-json", ...modelArgs(server)],
    t.sandbox,
  );
  expect(r.code).toBe(0);
  const capped = events(r.stdout).find((e) => e.type === "tool_result" && e.name === "crashy__flood")!;
  expect(capped.capped).toEqual({ totalChars: expect.any(Number), file: saved });
  expect((capped.content as string).length).toBeLessThan(40_000);
  expect(saved.startsWith(t.sandbox.sessions)).toBe(true);
  expect(fs.readFileSync(saved, "utf8").split("\n")).toHaveLength(20000);
  const tail = lastToolResults(server.requests[2]!)[0]!.text;
  expect(tail).toContain("flood line 19999");
  expect(tail).toContain("flood line 20000");
});

test("a rate limit is retried after retry-after; a model that keeps failing ends the run with exit 1", async () => {
  const server = await t.model([rateLimited(1), say("made it")]);
  const ok = await runAgent(["-p", "hi", "--no-tools", ...modelArgs(server, "anthropic")], t.sandbox);
  expect(ok.code).toBe(0);
  expect(ok.stdout).toBe("made it\n");
  expect(server.requests).toHaveLength(2);

  server.push(fail(503, "overloaded", 0), fail(503, "overloaded", 0), fail(503, "overloaded", 0));
  const bad = await runAgent(["-p", "hi", "--no-tools", ...modelArgs(server)], t.sandbox);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/indusr: model request failed: .*overloaded.*gave up after 3 attempts/);
});

test("--max-turns bounds a run (json output)", async () => {
  const server = await t.model([
    callTool("everything__echo", { message: "1" }),
    callTool("everything__echo", { message: "2" }),
    say("never"),
  ]);
  const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
  const r = await runAgent(
    ["-p", "loop", "--mcp", mcp, "--yes", "--max-turns", "2", "--output-format", "json", ...modelArgs(server)],
    t.sandbox,
  );
  expect(r.code).toBe(1);
  const result = JSON.parse(r.stdout) as Record<string, unknown>;
  expect(result).toMatchObject({
    type: "result",
    subtype: "error_max_turns",
    isError: true,
    turns: 2,
    error: "stopped after 2 turns (--max-turns 2)",
  });
  expect(result.toolCalls).toEqual([
    expect.objectContaining({ name: "everything__echo", isError: false }),
    expect.objectContaining({ name: "everything__echo", isError: true, refused: "max-turns" }),
  ]);
  expect(server.requests).toHaveLength(2);
});

test("a malformed project config is reported on stderr before the first turn, naming the file and the reason, and the run goes on", async () => {
  const server = await t.model([say("answered anyway")]);
  const file = path.join(t.sandbox.cwd, ".indusvx", "mcp.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{ "mcpServers": { "a": { "command": "x" }, }\n');
  const r = await runAgent(["-p", "hi", ...modelArgs(server)], t.sandbox);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("answered anyway\n");
  expect(r.stderr).toMatch(new RegExp(`warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*: .*malformed`, "i"));
});

test("the memory card keeps its notes per project in .indusvx/memory.md, across sessions", async () => {
  const server = await t.model([
    callTool("memory", { action: "append", text: "the build uses tsup" }),
    say("noted"),
    callTool("memory", { action: "read" }),
    (request) => say(`I remember: ${lastToolResults(request)[0]?.text.trim()}`),
  ]);
  const first = await runAgent(["-p", "remember this", "--allow", "memory", ...modelArgs(server)], t.sandbox);
  expect(first.code).toBe(0);
  expect(fs.readFileSync(path.join(t.sandbox.cwd, ".indusvx", "memory.md"), "utf8")).toBe("the build uses tsup\n");
  const second = await runAgent(["-p", "what do you remember?", ...modelArgs(server)], t.sandbox);
  expect(second.stdout).toBe("I remember: the build uses tsup\n");
});

test("with a mounted server that offers resources, the model lists and reads them read-only", async () => {
  const server = await t.model([
    callTool("list_resources", { server: "everything" }),
    callTool("read_resource", { server: "everything", uri: "demo://resource/static/document/architecture.md" }),
    (request) => say(`read ${lastToolResults(request)[0]?.text.length} chars`),
  ]);
  const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
  const r = await runAgent(["-p", "browse", "--mcp", mcp, ...modelArgs(server)], t.sandbox);
  expect(r.code).toBe(0);
  expect(lastToolResults(server.requests[1]!)[0]!.text).toMatch(
    /^everything {2}demo:\/\/resource\/static\/document\/architecture\.md/m,
  );
  expect(r.stdout).toMatch(/^read [1-9]\d+ chars$/m);
});
