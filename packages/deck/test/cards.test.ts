import fs from "node:fs";
import path from "node:path";
import type { DelegateRunner, MemoryStore, SaasGatewayPort } from "@indus/deck";
import { appNovelCards, deckContext, foldResult, localToolContext } from "@indus/deck";
import { findCard } from "@indus/deck/catalog";
import { BG_CAPTURE_DIRNAME, MAX_BUFFERED_LINES, STOP_GRACE_MS, TODO_GLYPHS } from "@indus/deck/internal";
import { waitFor } from "@indus/testkit";
import { deckAt, tempDir } from "./helpers";

jest.setTimeout(60_000);

describe("app cards", () => {
  it("come in the load-bearing order, each only in profile all", () => {
    expect(appNovelCards().map((c) => [c.id, c.profiles])).toEqual([
      ["todo", ["all"]],
      ["bg-process", ["all"]],
      ["task", ["all"]],
      ["saas-action", ["all"]],
      ["memory", ["all"]],
      ["enter_plan_mode", ["all"]],
      ["exit_plan_mode", ["all"]],
    ]);
  });

  it("guard their input: every card answers bad input with an isError result, never a throw", async () => {
    const { call } = deckAt(tempDir());
    for (const [name, input] of [
      ["todo", { action: "explode" }],
      ["todo", { action: "set" }],
      ["todo", { action: "set", items: [{ text: "x", state: "finished" }] }],
      ["bg-process", { action: "poll" }],
      ["task", {}],
      ["saas-action", { action: "execute" }],
      ["memory", { action: "append", text: 5 }],
      ["exit_plan_mode", { plan: "  " }],
      ["exit_plan_mode", null],
    ] as const) {
      const out = await call(name, input);
      expect({ name, isError: out.isError }).toEqual({ name, isError: true });
      expect(out.text).toMatch(/invalid arguments/);
    }
  });
});

describe("todo", () => {
  it("reads and sets wholesale with states, weights and glyphs", async () => {
    const { call } = deckAt(tempDir());
    expect((await call("todo", { action: "read" })).content[0]).toEqual({ type: "text", text: "No todos." });
    const set = await call("todo", {
      action: "set",
      items: [
        { text: "plan", state: "done" },
        { text: "build", state: "active", weight: "high" },
        { text: "polish", weight: "low" },
        { text: "gold-plate", state: "dropped" },
      ],
    });
    expect(set.content[0]).toEqual({
      type: "text",
      text: "[x] plan\n[~] build (high)\n[ ] polish (low)\n[-] gold-plate",
    });
    expect(set.content[1]).toEqual({
      type: "json",
      value: [
        { text: "plan", state: "done", weight: "normal" },
        { text: "build", state: "active", weight: "high" },
        { text: "polish", state: "pending", weight: "low" },
        { text: "gold-plate", state: "dropped", weight: "normal" },
      ],
    });
    await call("todo", { action: "set", items: [{ text: "only" }] });
    expect((await call("todo", { action: "read" })).content[0]).toEqual({ type: "text", text: "[ ] only" });
    expect(TODO_GLYPHS).toEqual({ pending: "[ ]", active: "[~]", done: "[x]", dropped: "[-]" });
  });

  it("keeps one store per built capability", async () => {
    const card = findCard("todo");
    const ctx = localToolContext(tempDir());
    const a = card?.build(deckContext("/tmp"));
    const b = card?.build(deckContext("/tmp"));
    await a?.run({ action: "set", items: ["mine"] }, ctx);
    expect(foldResult((await b?.run({ action: "read" }, ctx)) as never)).toEqual(
      expect.arrayContaining([{ type: "text", text: "No todos." }]),
    );
  });
});

describe("bg-process", () => {
  it("starts, polls, lists and stops, capturing output under .indusvx-bg", async () => {
    const cwd = tempDir();
    const { call, deck } = deckAt(cwd);
    try {
      const started = await call("bg-process", { action: "start", command: "echo hello; echo warn >&2; sleep 300" });
      expect(started.isError).toBe(false);
      const status = started.content[1] as unknown as {
        value: { id: string; state: string; captureFiles: { stdout: string; stderr: string } };
      };
      expect(status.value.state).toBe("running");
      expect(path.dirname(status.value.captureFiles.stdout)).toBe(path.join(cwd, BG_CAPTURE_DIRNAME));
      await waitFor("a poll shows both captured lines", async () => {
        const polled = await call("bg-process", { action: "poll", id: status.value.id, tail: 10 });
        return polled.text.includes("hello") && polled.text.includes("warn");
      });
      expect((await call("bg-process", { action: "list" })).text).toMatch(/p1\s+pid \d+\s+running/);
      const stopped = await call("bg-process", { action: "stop", id: status.value.id });
      expect((stopped.content[1] as unknown as { value: { state: string } }).value.state).toBe("killed");
      expect(fs.readFileSync(status.value.captureFiles.stdout, "utf8")).toBe("hello\n");
      expect(fs.readFileSync(status.value.captureFiles.stderr, "utf8")).toBe("warn\n");
    } finally {
      await deck.dispose();
    }
  });

  it("escalates to SIGKILL after the grace period for a process that ignores SIGTERM", async () => {
    const { call, deck } = deckAt(tempDir());
    try {
      const started = await call("bg-process", {
        action: "start",
        command: "trap '' TERM; echo ready; while true; do sleep 0.1; done",
      });
      const id = (started.content[1] as unknown as { value: { id: string } }).value.id;
      const t0 = Date.now();
      const stopped = await call("bg-process", { action: "stop", id });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(STOP_GRACE_MS - 100);
      expect((stopped.content[1] as unknown as { value: { signal: string } }).value.signal).toBe("SIGKILL");
    } finally {
      await deck.dispose();
    }
  });

  it("buffers at most 2,000 lines per stream", async () => {
    const cwd = tempDir();
    const { call, deck } = deckAt(cwd);
    try {
      // The output comes once the test says so: `start` reads what arrived in its first moments,
      // and a machine that paused past them (a sleep of 0.3 s before) had that read take it all.
      const command = "while [ ! -e go ]; do sleep 0.02; done; seq 1 2500; sleep 300";
      const started = await call("bg-process", { action: "start", command });
      const { id } = (started.content[1] as unknown as { value: { id: string } }).value;
      fs.writeFileSync(path.join(cwd, "go"), "");
      // Wait until the buffer holds the whole output (fixed sleeps lost the race on a loaded
      // machine); `tail` reads without moving the poll cursor. Then poll once.
      await waitFor("the buffer holds line 2500", async () =>
        /^2500$/m.test((await call("bg-process", { action: "poll", id, tail: 1 })).text),
      );
      const polled = await call("bg-process", { action: "poll", id });
      expect(polled.text).toMatch(/\[500 older lines dropped: buffers keep the last 2000 lines per stream\]/);
      expect(MAX_BUFFERED_LINES).toBe(2_000);
    } finally {
      await deck.dispose();
    }
  });
});

describe("task", () => {
  it("degrades to a typed stub without a runner", async () => {
    const { call } = deckAt(tempDir());
    const out = await call("task", { objective: "summarize the repo" });
    expect(out.isError).toBe(true);
    expect(foldResult(out)).toEqual({
      status: "unavailable",
      tool: "task",
      reason: "no-delegate-runner",
      message: expect.stringContaining("No sub-agent runner"),
    });
  });

  it("delegates to the injected runner, listing its roster and passing the signal", async () => {
    const calls: unknown[] = [];
    const delegate: DelegateRunner = {
      listAgents: () => [{ name: "explorer", description: "reads code" }],
      run: async (request, signal) => {
        calls.push({ request, aborted: signal.aborted });
        return {
          ok: request.agent !== "explorer" || request.objective !== "fail",
          output: `did: ${request.objective}`,
        };
      },
    };
    const { call, box } = deckAt(tempDir(), { framework: { delegate } });
    expect(box.descriptors().find((d) => d.name === "task")?.description).toContain("- explorer: reads code");
    const ok = await call("task", { objective: "map it", agent: "explorer", context: "src/" });
    expect(ok).toMatchObject({ isError: false, text: "did: map it" });
    expect(calls[0]).toEqual({ request: { objective: "map it", agent: "explorer", context: "src/" }, aborted: false });
    expect((await call("task", { objective: "fail", agent: "explorer" })).isError).toBe(true);
    expect((await call("task", { objective: "x", agent: "ghost" })).text).toMatch(/unknown agent "ghost"/);
  });
});

describe("saas-action", () => {
  it("degrades to a typed stub without a gateway", async () => {
    const { call } = deckAt(tempDir());
    const out = await call("saas-action", { action: "discover", vendor: "github" });
    expect(out.isError).toBe(true);
    expect(foldResult(out)).toMatchObject({ status: "unavailable", tool: "saas-action", reason: "no-saas-gateway" });
  });

  it("discovers and executes over the gateway, slugs verbatim", async () => {
    const seen: unknown[] = [];
    const saas: SaasGatewayPort = {
      discover: async (query) => {
        seen.push(["discover", query]);
        return [{ slug: "GITHUB_CREATE_ISSUE" }];
      },
      execute: async (action, params) => {
        seen.push(["execute", action, params]);
        return { ok: true };
      },
    };
    const { call } = deckAt(tempDir(), { framework: { saas } });
    expect(foldResult(await call("saas-action", { action: "discover", vendor: "github", query: "issue" }))).toEqual([
      { slug: "GITHUB_CREATE_ISSUE" },
    ]);
    expect(
      foldResult(await call("saas-action", { action: "execute", slug: "GITHUB_CREATE_ISSUE", params: { title: "t" } })),
    ).toEqual({ ok: true });
    expect(seen).toEqual([
      ["discover", { vendor: "github", query: "issue" }],
      ["execute", "GITHUB_CREATE_ISSUE", { title: "t" }],
    ]);
    expect((await call("saas-action", { action: "execute", slug: "X", params: [1] })).text).toMatch(
      /"params" must be an object/,
    );
  });
});

describe("memory", () => {
  it("reads, replaces and appends over an in-memory store owned by the capability", async () => {
    const a = deckAt(tempDir());
    const b = deckAt(tempDir());
    expect((await a.call("memory", { action: "read" })).text).toBe("(memory is empty)");
    await a.call("memory", { action: "replace", text: "fact one" });
    await a.call("memory", { action: "append", text: "fact two" });
    expect((await a.call("memory", { action: "read" })).text).toBe("fact one\nfact two");
    expect((await b.call("memory", { action: "read" })).text).toBe("(memory is empty)");
  });

  it("uses an injected MemoryStore", async () => {
    let text = "seed";
    const memory: MemoryStore = {
      read: async () => text,
      replace: async (t) => {
        text = t;
      },
      append: async (t) => {
        text += `|${t}`;
      },
    };
    const { call } = deckAt(tempDir(), { framework: { memory } });
    await call("memory", { action: "append", text: "more" });
    expect(text).toBe("seed|more");
    expect((await call("memory", { action: "read" })).text).toBe("seed|more");
  });
});

describe("plan-mode markers", () => {
  it("enter_plan_mode returns the marker plus explore-only prose", async () => {
    const { call } = deckAt(tempDir());
    const out = await call("enter_plan_mode", {});
    expect(out.isError).toBe(false);
    expect(out.content[0]).toEqual({ type: "json", value: { enterPlanMode: true, applied: false } });
    expect(out.content[1]).toEqual({ type: "text", text: expect.stringContaining("Explore only") });
    expect(out.structuredContent).toEqual({ enterPlanMode: true, applied: false });
  });

  it("exit_plan_mode returns { exitPlan: true, plan }", async () => {
    const { call } = deckAt(tempDir());
    const out = await call("exit_plan_mode", { plan: "# Plan\n1. do it" });
    expect(foldResult(out)).toEqual({ exitPlan: true, plan: "# Plan\n1. do it" });
  });
});
