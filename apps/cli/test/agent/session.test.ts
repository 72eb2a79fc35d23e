/**
 * The turn loop in-process, against the fake model server over real HTTP in
 * both wire protocols, with tools built from plain functions.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentEvent } from "../../src/agent/events";
import { createLanguageModel } from "../../src/agent/model/language-model";
import { PermissionGate, type PermissionAsker } from "../../src/agent/session/permission";
import { resolveModelConfig } from "../../src/agent/model/provider-config";
import { AgentSession, type SessionOptions } from "../../src/agent/session/session";
import {
  callTool,
  callTools,
  fail,
  lastToolResults,
  rateLimited,
  say,
  startFakeModel,
  type FakeModelServer,
  type Protocol,
  type Step,
} from "./fake-model/fake-model-server";
import { waitFor } from "@indus/testkit";
import { fakeDeck, text, waitsForAbort, type FakeTool } from "./support/fake-deck";

const echo: FakeTool = {
  name: "everything__echo",
  readOnly: true,
  parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  run: (input) => text(`Echo: ${(input as { message: string }).message}`),
};

const writeCalls: unknown[] = [];
const write: FakeTool = {
  name: "write",
  readOnly: false,
  run: (input) => {
    writeCalls.push(input);
    return text("wrote it");
  },
};

let fake: FakeModelServer | undefined;
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-session-"));
  writeCalls.length = 0;
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Harness {
  readonly session: AgentSession;
  readonly events: AgentEvent[];
  readonly fake: FakeModelServer;
  readonly deck: ReturnType<typeof fakeDeck>;
  run(prompt: string, signal?: AbortSignal): ReturnType<AgentSession["run"]>;
}

async function harness(
  protocol: Protocol,
  script: Step[],
  tools: FakeTool[],
  extra: Partial<SessionOptions> & { ask?: PermissionAsker; allow?: string[]; yes?: boolean } = {},
): Promise<Harness> {
  fake = await startFakeModel({ script });
  const config = resolveModelConfig(
    { provider: protocol, model: protocol === "anthropic" ? "claude-test" : "fake-model", baseUrl: fake.baseUrl },
    {},
    {},
  );
  const deck = fakeDeck(tools, [
    {
      id: "everything",
      transport: "stdio",
      phase: "ready",
      toolCount: 1,
      instructions: "Everything server: use echo to test round trips.",
    },
  ]);
  const events: AgentEvent[] = [];
  const session = new AgentSession({
    model: createLanguageModel(config, config.model!),
    provider: protocol,
    modelId: config.model!,
    baseUrl: config.baseUrl,
    deck,
    cwd: dir,
    sessionDir: path.join(dir, "sessions"),
    gate: new PermissionGate({
      allow: extra.allow ?? [],
      yes: extra.yes ?? false,
      ...(extra.ask ? { ask: extra.ask } : {}),
    }),
    autoApprovePlans: extra.autoApprovePlans ?? false,
    maxTurns: extra.maxTurns ?? 20,
    maxRetries: 2,
    emit: (event) => events.push(event),
    ...extra,
  });
  session.start();
  return {
    session,
    events,
    fake,
    deck,
    run: (prompt, signal) => session.run(prompt, signal ?? new AbortController().signal),
  };
}

describe.each<Protocol>(["openai", "anthropic"])("session over %s", (protocol) => {
  test("a plain answer streams as text deltas and ends the task", async () => {
    const h = await harness(protocol, [say("Hello there, human.", { usage: { input: 12, output: 7 } })], [echo]);
    const result = await h.run("hi");
    expect(result.subtype).toBe("success");
    expect(result.text).toBe("Hello there, human.");
    const deltas = h.events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(result.usage.inputTokens).toBe(12);
    expect(result.usage.outputTokens).toBe(7);
    expect(h.fake.requests[0]!.messages.at(-1)!.text).toBe("hi");
  });

  test("the briefing lists tools and each server's instructions", async () => {
    const h = await harness(protocol, [say("ok")], [echo, write]);
    await h.run("hi");
    const system = h.fake.requests[0]!.system;
    expect(system).toContain("everything__echo");
    expect(system).toContain("Everything server: use echo to test round trips.");
    expect(system).toContain("- write:");
    expect(h.fake.requests[0]!.tools.map((t) => t.name).sort()).toEqual(["everything__echo", "write"]);
  });

  test("a tool call runs through the box and the model sees its result", async () => {
    const h = await harness(
      protocol,
      [callTool("everything__echo", { message: "ping" }, { text: "Let me echo." }), say("The server said ping.")],
      [echo],
    );
    const result = await h.run("echo ping");
    expect(result.subtype).toBe("success");
    expect(result.turns).toBe(2);
    expect(result.text).toBe("The server said ping.");
    const results = lastToolResults(h.fake.requests[1]!);
    expect(results).toHaveLength(1);
    expect(results[0]!.text).toBe("Echo: ping");
    if (protocol === "anthropic") expect(results[0]!.isError).toBe(false);
    const kinds = h.events.map((e) => e.type);
    expect(kinds).toContain("tool_call");
    expect(kinds).toContain("tool_result");
  });

  test("a mutating tool is refused without --allow, and the refusal is the result the model sees", async () => {
    const h = await harness(
      protocol,
      [callTool("write", { path: "a.txt", content: "x" }), say("I could not write.")],
      [write],
    );
    const result = await h.run("write a file");
    expect(result.subtype).toBe("success");
    expect(writeCalls).toHaveLength(0);
    const seen = lastToolResults(h.fake.requests[1]!)[0]!;
    expect(seen.text).toMatch(/^Refused: `write` is not known to be read-only/);
    if (protocol === "anthropic") expect(seen.isError).toBe(true);
    const refusal = h.events.find((e) => e.type === "tool_result");
    expect(refusal).toMatchObject({ refused: "not-allowed", isError: true });
  });

  test("--allow globs and --yes let mutating tools run", async () => {
    const h = await harness(protocol, [callTool("write", { path: "a.txt" }), say("done")], [write], { allow: ["wr*"] });
    await h.run("write");
    expect(writeCalls).toHaveLength(1);
    await fake!.close();
    const y = await harness(protocol, [callTool("write", { path: "b.txt" }), say("done")], [write], { yes: true });
    await y.run("write");
    expect(writeCalls).toHaveLength(2);
  });

  test("on a terminal the user is asked: always covers the rest of the session, deny refuses", async () => {
    const answers = ["always", "deny"] as const;
    const asked: string[] = [];
    let n = 0;
    const ask: PermissionAsker = async (call) => {
      asked.push(call.name);
      return answers[Math.min(n++, 1)]!;
    };
    const bash: FakeTool = { name: "bash", run: () => text("ran") };
    const h = await harness(
      protocol,
      [
        callTool("write", { path: "1" }),
        callTool("write", { path: "2" }),
        callTool("bash", { command: "ls" }),
        say("done"),
      ],
      [write, bash],
      { ask },
    );
    await h.run("go");
    expect(asked).toEqual(["write", "bash"]);
    expect(writeCalls).toHaveLength(2);
    expect(lastToolResults(h.fake.requests[3]!)[0]!.text).toMatch(/^Refused: the user declined `bash`/);
  });

  test("read-only calls of one turn run side by side", async () => {
    let waiting = 0;
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    const meet = (name: string): FakeTool => ({
      name,
      readOnly: true,
      run: async () => {
        waiting += 1;
        if (waiting === 2) release();
        await both; // deadlocks unless both calls are in flight at once
        return text(`${name} done`);
      },
    });
    const h = await harness(
      protocol,
      [
        callTools([
          { name: "a", input: {} },
          { name: "b", input: {} },
        ]),
        say("both done"),
      ],
      [meet("a"), meet("b")],
    );
    const result = await h.run("go");
    expect(result.subtype).toBe("success");
    expect(lastToolResults(h.fake.requests[1]!).map((r) => r.text)).toEqual(["a done", "b done"]);
  });

  test("plan mode blocks mutating tools until the plan is approved, and saves the plan", async () => {
    const enter: FakeTool = {
      name: "enter_plan_mode",
      readOnly: true,
      run: () => ({ content: [{ type: "json", value: { enterPlanMode: true, applied: false } }] }),
    };
    const exit: FakeTool = {
      name: "exit_plan_mode",
      readOnly: true,
      run: (input) => ({
        content: [{ type: "json", value: { exitPlan: true, plan: (input as { plan: string }).plan } }],
      }),
    };
    const h = await harness(
      protocol,
      [
        callTool("enter_plan_mode", {}),
        callTool("write", { path: "x" }),
        callTool("exit_plan_mode", { plan: "# Add x\n1. write x" }),
        callTool("write", { path: "x" }),
        say("done"),
      ],
      [enter, exit, write],
      { yes: true, autoApprovePlans: true },
    );
    const result = await h.run("plan then write");
    expect(result.subtype).toBe("success");
    expect(h.fake.requests[1]!.system).toContain("Plan mode is ON");
    expect(lastToolResults(h.fake.requests[2]!)[0]!.text).toMatch(/^Refused: plan mode is on/);
    const approval = lastToolResults(h.fake.requests[3]!)[0]!.text;
    expect(approval).toContain("The user approved the plan");
    expect(writeCalls).toHaveLength(1);
    const planEvent = h.events.find((e) => e.type === "plan_mode" && e.planFile !== undefined) as Extract<
      AgentEvent,
      { type: "plan_mode" }
    >;
    expect(path.basename(planEvent.planFile!)).toMatch(/^[0-9a-z]+-add-x\.md$/);
    expect(fs.readFileSync(planEvent.planFile!, "utf8")).toContain("1. write x");
  });

  test("without anyone to approve, plan mode stays on and the plan is still saved", async () => {
    const enter: FakeTool = {
      name: "enter_plan_mode",
      readOnly: true,
      run: () => text(JSON.stringify({ enterPlanMode: true })),
    };
    const exit: FakeTool = {
      name: "exit_plan_mode",
      readOnly: true,
      run: (input) => text(JSON.stringify({ exitPlan: true, plan: (input as { plan: string }).plan })),
    };
    const h = await harness(
      protocol,
      [
        callTool("enter_plan_mode", {}),
        callTool("exit_plan_mode", { plan: "Step one" }),
        callTool("write", {}),
        say("stopped"),
      ],
      [enter, exit, write],
      {
        yes: true,
      },
    );
    await h.run("plan");
    expect(lastToolResults(h.fake.requests[2]!)[0]!.text).toContain("Nobody can approve plans");
    expect(lastToolResults(h.fake.requests[3]!)[0]!.text).toMatch(/^Refused: plan mode is on/);
    expect(writeCalls).toHaveLength(0);
    expect(h.session.inPlanMode).toBe(true);
  });

  test("a flooding result is capped with a note and saved whole to a file", async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(30)}`).join("\n");
    const flood: FakeTool = { name: "flood", readOnly: true, run: () => text(big) };
    const h = await harness(protocol, [callTool("flood", {}), say("seen")], [flood], { resultMaxChars: 4000 });
    await h.run("flood me");
    const seen = lastToolResults(h.fake.requests[1]!)[0]!.text;
    expect(seen.length).toBeLessThan(5000);
    expect(seen).toContain("line 0 ");
    expect(seen).toContain("line 4999 ");
    const match = /full result is saved at (\S+?);/.exec(seen);
    expect(match).not.toBeNull();
    expect(fs.readFileSync(match![1]!, "utf8")).toBe(big);
  });

  test("--max-turns stops a model that keeps calling tools", async () => {
    const h = await harness(
      protocol,
      [callTool("everything__echo", { message: "1" }), callTool("everything__echo", { message: "2" }), say("never")],
      [echo],
      { maxTurns: 2 },
    );
    const result = await h.run("loop");
    expect(result.subtype).toBe("error_max_turns");
    expect(result.turns).toBe(2);
    expect(h.fake.requests).toHaveLength(2);
    expect(h.deck.started).toHaveLength(1);
  });

  test("aborting mid-tool cancels it through its signal and ends the task as interrupted", async () => {
    const seen = { aborted: false };
    const h = await harness(protocol, [callTool("slow", {}), say("after")], [waitsForAbort("slow", seen)], {
      yes: true,
    });
    const controller = new AbortController();
    const running = h.run("go slow", controller.signal);
    await waitFor("the deck tool started", () => h.deck.started.length === 1);
    controller.abort();
    const result = await running;
    expect(result.subtype).toBe("interrupted");
    expect(seen.aborted).toBe(true);
    // The conversation stays consistent: the next task sends the interrupted result.
    h.fake.push(say("fine"));
    const next = await h.run("and now?");
    expect(next.subtype).toBe("success");
    expect(
      h.fake.requests.at(-1)!.messages.some((m) => m.toolResults.some((r) => r.text.startsWith("Interrupted"))),
    ).toBe(true);
  });

  test("aborting mid-stream keeps the partial answer; aborting a hung request ends promptly", async () => {
    const h = await harness(
      protocol,
      [say("one two three four five six seven eight nine", { chunkDelayMs: 300 }), { kind: "hang" }, say("ok")],
      [echo],
    );
    const controller = new AbortController();
    const running = h.run("talk slowly", controller.signal);
    await waitFor("a text_delta event", () => h.events.some((e) => e.type === "text_delta"));
    controller.abort();
    const result = await running;
    expect(result.subtype).toBe("interrupted");
    expect(result.text.length).toBeGreaterThan(0);
    const hung = new AbortController();
    const waiting = h.run("and now hang", hung.signal);
    await h.fake.waitForRequests(2);
    hung.abort();
    expect((await waiting).subtype).toBe("interrupted");
    const next = await h.run("again");
    expect(next.subtype).toBe("success");
    const sent = h.fake.requests.at(-1)!.messages;
    expect(sent.some((m) => m.role === "assistant" && m.text.includes("[interrupted by the user]"))).toBe(true);
  });

  test("a 429 with retry-after is retried; a persistent failure is a clear error", async () => {
    const h = await harness(protocol, [rateLimited(0), say("after retry")], [echo]);
    const ok = await h.run("hi");
    expect(ok.subtype).toBe("success");
    expect(h.fake.requests).toHaveLength(2);
    h.fake.push(
      fail(500, "upstream exploded", 0),
      fail(500, "upstream exploded", 0),
      fail(500, "upstream exploded", 0),
    );
    const bad = await h.run("again");
    expect(bad.subtype).toBe("error_model");
    expect(bad.error).toMatch(/model request failed: .*upstream exploded.*gave up after 3 attempts/);
  });

  test("malformed tool input gets an error result from the SDK and the session goes on", async () => {
    const h = await harness(
      protocol,
      [callTools([{ name: "everything__echo", rawArguments: "{not json" }]), say("recovered")],
      [echo],
    );
    const result = await h.run("go");
    expect(result.subtype).toBe("success");
    expect(h.deck.started).toHaveLength(0);
    expect(lastToolResults(h.fake.requests[1]!)).toHaveLength(1);
  });

  test("Anthropic requests carry cache breakpoints on the briefing and the newest message; OpenAI requests none", async () => {
    const h = await harness(protocol, [callTool("everything__echo", { message: "c" }), say("done")], [echo]);
    await h.run("cache me");
    const bodies = h.fake.requests.map((r) => JSON.stringify(r.body));
    if (protocol === "anthropic") {
      for (const request of h.fake.requests) {
        const body = request.body as {
          system: { cache_control?: unknown }[];
          messages: { content: { cache_control?: unknown }[] }[];
        };
        expect(body.system.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
        expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
        expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(2);
      }
    } else {
      for (const body of bodies) expect(body).not.toMatch(/cache_?control/i);
    }
    // The stored conversation is untouched by the breakpoints.
    const lines = fs.readFileSync(h.session.transcript.file, "utf8");
    expect(lines).not.toContain("cacheControl");
  });

  test("the transcript records the session as JSON lines", async () => {
    const h = await harness(protocol, [callTool("everything__echo", { message: "t" }), say("done")], [echo]);
    await h.run("record me");
    h.session.close();
    const lines = fs
      .readFileSync(h.session.transcript.file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]!.type).toBe("session");
    expect(lines.filter((l) => l.type === "message").length).toBe(4); // user, assistant+call, tool, assistant
    expect(lines.at(-1)!.type).toBe("result");
  });
});
