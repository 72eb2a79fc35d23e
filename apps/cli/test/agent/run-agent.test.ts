/**
 * The agent command in-process: setup errors before any tool starts, and the
 * three output formats, with a fake deck and the fake model over HTTP.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { AgentEvent } from "../../src/agent/events";
import { runAgentCommand, type AgentFlags, type BootOptions } from "../../src/agent/run-agent";
import { silentProgress } from "../../src/boot/progress";
import { callTool, say, startFakeModel, type FakeModelServer } from "./fake-model/fake-model-server";
import { waitFor } from "@indus/testkit";
import { fakeDeck, text, type FakeDeck } from "./support/fake-deck";

let fake: FakeModelServer | undefined;
let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-run-"));
  fs.mkdirSync(path.join(root, "home"));
  fs.mkdirSync(path.join(root, "project"));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

function makeDeck(): FakeDeck {
  return fakeDeck(
    [
      {
        name: "everything__echo",
        readOnly: true,
        run: (input) => text(`Echo: ${(input as { message: string }).message}`),
      },
    ],
    [
      { id: "everything", transport: "stdio", phase: "ready", toolCount: 1, connectMs: 120 },
      {
        id: "broken",
        transport: "stdio",
        phase: "faulted",
        toolCount: 0,
        fault: { kind: "spawn-failed", message: "spawn nope ENOENT" },
      },
    ],
  );
}

async function run(flags: AgentFlags, options: { stdin?: string; env?: NodeJS.ProcessEnv; deck?: FakeDeck } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  stdin.end(options.stdin ?? "");
  const boots: BootOptions[] = [];
  const deck = options.deck ?? makeDeck();
  const code = await runAgentCommand(
    [],
    { cwd: path.join(root, "project"), sessionDir: path.join(root, "sessions"), ...flags },
    {
      bootDeck: async (opts) => {
        boots.push(opts);
        return deck;
      },
      stdin,
      stdout,
      stderr,
      env: { HOME: path.join(root, "home"), ...options.env },
    },
  );
  return { code, stdout: out, stderr: err, boots, deck };
}

test("no key for the official API: a clear error, and nothing is booted", async () => {
  const r = await run({ print: "hi" });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/^indusr: no API key: set OPENAI_API_KEY/);
  expect(r.boots).toHaveLength(0);
});

test("an unreachable provider: a clear error before any tool starts", async () => {
  const port = await new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port: p } = server.address() as net.AddressInfo;
      server.close(() => resolve(p));
    });
  });
  const r = await run({ print: "hi", baseUrl: `http://127.0.0.1:${port}/v1`, model: "m" });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    `cannot reach the OpenAI-compatible API at http://127.0.0.1:${port}/v1 (ECONNREFUSED): is the server running?`,
  );
  expect(r.deck.started).toHaveLength(0);
  expect(r.deck.closed).toBe(true);
});

test("off a terminal the model error is reported while servers are still starting", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const deck = makeDeck();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const stdin = new PassThrough();
  stdin.end();
  const done = runAgentCommand(
    [],
    {
      print: "hi",
      baseUrl: "http://127.0.0.1:9/v1",
      model: "m",
      cwd: path.join(root, "project"),
      sessionDir: path.join(root, "s"),
    },
    {
      bootDeck: async () => {
        await released;
        return deck;
      },
      stdin,
      stdout: new PassThrough(),
      stderr,
      env: { HOME: path.join(root, "home") },
    },
  );
  await waitFor('the early "cannot reach" error on stderr', () => err.includes("cannot reach"));
  release();
  expect(await done).toBe(1);
  expect(err.match(/cannot reach/g)).toHaveLength(1);
  expect(deck.closed).toBe(true);
});

test("a rejected key is reported by the preflight", async () => {
  fake = await startFakeModel({ apiKey: "right" });
  const r = await run(
    { print: "hi", baseUrl: fake.baseUrl, model: "m", provider: "anthropic" },
    { env: { ANTHROPIC_API_KEY: "wrong" } },
  );
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    `the Anthropic API at ${fake.baseUrl} answered 401: the key in ANTHROPIC_API_KEY was refused`,
  );
  expect(fake.requests).toHaveLength(0);
});

test("stream-json: session start with server statuses, deltas, calls, results, final usage", async () => {
  fake = await startFakeModel({
    script: [
      callTool("everything__echo", { message: "hey" }, { text: "Calling." }),
      say("It said hey.", { usage: { input: 30, output: 4 } }),
    ],
  });
  const r = await run({ print: "echo hey", baseUrl: fake.baseUrl, model: "fake-model", outputFormat: "stream-json" });
  expect(r.code).toBe(0);
  const events = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as AgentEvent);
  const start = events[0] as Extract<AgentEvent, { type: "session_start" }>;
  expect(start.type).toBe("session_start");
  expect(start.servers).toEqual([
    expect.objectContaining({ id: "everything", phase: "ready", toolCount: 1 }),
    expect.objectContaining({
      id: "broken",
      phase: "faulted",
      fault: { kind: "spawn-failed", message: "spawn nope ENOENT" },
    }),
  ]);
  expect(start.tools).toEqual([{ name: "everything__echo", origin: "server", readOnly: true }]);
  const types = events.map((e) => e.type);
  expect(types).toEqual(expect.arrayContaining(["text_delta", "tool_call", "tool_result", "turn_end", "result"]));
  expect(events.find((e) => e.type === "tool_result")).toMatchObject({
    name: "everything__echo",
    isError: false,
    content: "Echo: hey",
  });
  const result = events.at(-1) as Extract<AgentEvent, { type: "result" }>;
  expect(result).toMatchObject({
    type: "result",
    subtype: "success",
    isError: false,
    result: "It said hey.",
    turns: 2,
  });
  expect(result.usage.inputTokens).toBe(40);
  expect(fs.existsSync(result.transcript)).toBe(true);
  expect(r.boots[0]).toMatchObject({ profile: "all", noTools: false, sessionDir: path.join(root, "sessions") });
  expect(r.boots[0]!.progress).toBe(silentProgress); // nothing is drawn off a terminal
});

test("json: one object at the end; text: only the answer on stdout, activity on stderr", async () => {
  fake = await startFakeModel({ script: [callTool("everything__echo", { message: "x" }), say("Answer one.")] });
  const j = await run({ print: "go", baseUrl: fake.baseUrl, model: "fake-model", outputFormat: "json" });
  expect(j.code).toBe(0);
  const lines = j.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  const object = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(object).toMatchObject({ type: "result", subtype: "success", result: "Answer one.", model: "fake-model" });
  expect(object.toolCalls).toEqual([
    expect.objectContaining({ name: "everything__echo", input: { message: "x" }, isError: false }),
  ]);

  fake.push(callTool("everything__echo", { message: "y" }, { text: "Thinking out loud." }), say("Answer two."));
  const t = await run({ print: "go", baseUrl: fake.baseUrl, model: "fake-model" });
  expect(t.code).toBe(0);
  expect(t.stdout).toBe("Answer two.\n");
  expect(t.stderr).toContain("● everything__echo y");
  expect(t.stderr).toContain("⎿ Echo: y");
  expect(t.stderr).toMatch(
    /warning: MCP server "broken" failed \(spawn-failed\): spawn nope ENOENT; its tools are skipped/,
  );
});

test("the prompt can come on stdin; an empty stdin is a usage error", async () => {
  fake = await startFakeModel({ script: [(request) => say(`You said: ${request.messages.at(-1)!.text}`)] });
  const r = await run({ baseUrl: fake.baseUrl, model: "fake-model" }, { stdin: "piped task\n" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("You said: piped task\n");
  const empty = await run({ baseUrl: fake.baseUrl, model: "fake-model" }, { stdin: "" });
  expect(empty.code).toBe(2);
  expect(empty.stderr).toMatch(/no prompt: stdin was empty/);
});

test("--no-tools asks boot for no tools at all and tells the model it has no tools", async () => {
  fake = await startFakeModel({ script: [say("just talking")] });
  const r = await run(
    { print: "hi", baseUrl: fake.baseUrl, model: "fake-model", noTools: true },
    { deck: fakeDeck([]) },
  );
  expect(r.code).toBe(0);
  expect(r.boots[0]!.noTools).toBe(true);
  expect(fake.requests[0]!.tools).toEqual([]);
  expect(fake.requests[0]!.system).toContain("No tools are available");
});
