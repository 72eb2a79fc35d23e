import type { Capability, ToolContext } from "@indus/deck";
import { isDeckFault } from "@indus/deck";
import {
  type CapabilitySource,
  canonToolName,
  deckContext,
  defineCard,
  foldResult,
  provisionDeck,
  selectTools,
} from "@indus/deck";
import { deckAt, tempDir } from "./helpers";

const probe = (
  name: string,
  run: (input: unknown, ctx: ToolContext) => Promise<never> | Promise<{ content: [] }> | never,
): Capability => ({
  name,
  label: name,
  description: `probe ${name}`,
  parameters: { type: "object" },
  readOnly: true,
  run,
});

describe("provisionDeck", () => {
  it("builds the profile's rows in catalog order", () => {
    const ctx = deckContext(tempDir());
    expect(
      provisionDeck("authoring", ctx)
        .tools()
        .map((t) => t.name),
    ).toEqual(["read", "ls", "grep", "find", "websearch", "webfetch", "todo_read"]);
    expect(provisionDeck("survey", ctx).tools()).toHaveLength(12);
    expect(provisionDeck("all", ctx).tools()).toHaveLength(19);
  });

  it("refuses an unknown profile with a typed fault", () => {
    expect(() => provisionDeck("nope" as never, deckContext("/tmp"))).toThrow(/unknown profile/);
    try {
      provisionDeck("nope" as never, deckContext("/tmp"));
    } catch (error) {
      expect(isDeckFault(error)).toBe(true);
    }
  });

  it("tools() is a fresh copy each call", () => {
    const deck = provisionDeck("survey", deckContext(tempDir()));
    const a = deck.tools();
    a.pop();
    expect(deck.tools()).toHaveLength(12);
    expect(deck.tools()).not.toBe(deck.tools());
  });

  it("graft appends, retain filters, mapCapabilities wraps; each returns a new deck", () => {
    const deck = provisionDeck("authoring", deckContext(tempDir()));
    const extra = probe("srv__echo", async () => ({ content: [] }));
    const grafted = deck.graft([extra]);
    expect(
      grafted
        .tools()
        .map((t) => t.name)
        .slice(-1),
    ).toEqual(["srv__echo"]);
    expect(deck.tools()).toHaveLength(7);
    const only = grafted.retain((cap) => cap.name === "read" || cap.name === "srv__echo");
    expect(only.tools().map((t) => t.name)).toEqual(["read", "srv__echo"]);
    const labelled = only.mapCapabilities((cap) => ({ ...cap, label: `[x] ${cap.label}`, run: cap.run.bind(cap) }));
    expect(labelled.tools().map((t) => t.label)).toEqual(["[x] Read file", "[x] srv__echo"]);
  });

  it("applies --tools to the built-in deck only, with canonical name matching", () => {
    expect(canonToolName("Web_Fetch")).toBe("webfetch");
    expect(canonToolName("web-fetch")).toBe(canonToolName("webfetch"));
    const deck = provisionDeck("all", deckContext(tempDir()));
    const selection = selectTools(
      ["READ", "web_fetch,bg_process", "nonesuch"],
      deck.tools().map((t) => t.name),
    );
    expect(selection.unknown).toEqual(["nonesuch"]);
    const chosen = deck.retain(selection.keep).graft([probe("srv__x", async () => ({ content: [] }))]);
    expect(chosen.tools().map((t) => t.name)).toEqual(["read", "webfetch", "bg-process", "srv__x"]);
    expect(selectTools([], ["read"]).keep({ name: "anything" })).toBe(true);
  });
});

describe("the runtime tool box", () => {
  it("describes each capability with its readOnlyHint", () => {
    const { box } = deckAt(tempDir());
    const byName = new Map(box.descriptors().map((d) => [d.name, d]));
    expect(byName.get("read")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("bash")?.annotations?.readOnlyHint).toBe(false);
    expect(byName.get("exit_plan_mode")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("read")?.annotations?.title).toBe("Read file");
    expect(box.onDescriptorsChanged).toBeUndefined();
  });

  it("turns an unknown name into an isError outcome", async () => {
    const { call } = deckAt(tempDir());
    const outcome = await call("nonesuch", {});
    expect(outcome.isError).toBe(true);
    expect(outcome.callId).toBe("c1");
    expect(outcome.text).toMatch(/unknown tool "nonesuch"/);
  });

  it("turns a thrown error (even from a raw Card) into an isError outcome", async () => {
    const deck = provisionDeck("authoring", deckContext(tempDir())).graft([
      probe("boom", async () => {
        throw new Error("kaput");
      }),
    ]);
    const outcome = await deck.intoToolBox().runner.run({ id: "x", name: "boom", input: {} });
    expect(outcome).toMatchObject({ callId: "x", isError: true });
    expect(foldResult(outcome)).toBe("boom: kaput");
  });

  it("reports bad input as an isError result naming the field", async () => {
    const { call } = deckAt(tempDir());
    const outcome = await call("read", { path: 42 });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/"path" must be a string/);
    expect((await call("read", "not an object")).text).toMatch(/arguments must be a JSON object/);
  });

  it("threads the call's AbortSignal and one shared session context through every call", async () => {
    const seen: ToolContext[] = [];
    const spy = defineCard({
      name: "spy",
      label: "spy",
      description: "records its context",
      parameters: { type: "object" },
      readOnly: true,
      async run(_input, ctx) {
        seen.push(ctx);
        return { content: [{ type: "text", text: String(ctx.signal.aborted) }] };
      },
    });
    const cwd = tempDir();
    const deck = provisionDeck("all", deckContext(cwd)).graft([spy]);
    const box = deck.intoToolBox();
    const controller = new AbortController();
    controller.abort();
    const aborted = await box.runner.run({ id: "1", name: "spy", input: {} }, { signal: controller.signal });
    expect(aborted.isError).toBe(true); // a card started on an aborted signal reports cancellation
    await box.runner.run({ id: "2", name: "spy", input: {} });
    const live = new AbortController();
    await box.runner.run({ id: "3", name: "spy", input: {} }, { signal: live.signal });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.cwd).toBe(cwd);
    expect(seen[0]?.signal.aborted).toBe(false);
    expect(seen[1]?.signal).toBe(live.signal);
  });

  it("shares one checklist per deck between todo_set and todo_read; two decks never share", async () => {
    const cwd = tempDir();
    const a = deckAt(cwd);
    const b = deckAt(cwd);
    const set = await a.call("todo_set", {
      todos: [
        { content: "write tests", status: "in_progress" },
        { content: "ship", status: "pending" },
      ],
    });
    expect(set.isError).toBe(false);
    const read = await a.call("todo_read", {});
    expect(read.text).toContain("[~] write tests");
    expect(read.text).toContain("[ ] ship");
    expect((await b.call("todo_read", {})).text).toContain("The checklist is empty.");
    // A deck derived with graft/retain keeps the session.
    const derived = a.deck.retain(() => true).intoToolBox();
    const again = await derived.runner.run({ id: "d", name: "todo_read", input: {} });
    expect(foldResult(again)).toEqual(
      expect.arrayContaining([{ type: "text", text: expect.stringContaining("write tests") }]),
    );
  });

  it("follows a live source: descriptors re-read it and listeners hear changes", async () => {
    let caps: Capability[] = [probe("srv__one", async () => ({ content: [] }))];
    const listeners = new Set<() => void>();
    const source: CapabilitySource = {
      capabilities: () => caps,
      onChanged(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const deck = provisionDeck("authoring", deckContext(tempDir()))
      .graft(source)
      .retain((c) => c.name !== "ls");
    const box = deck.intoToolBox();
    const first = box.descriptors();
    expect(first.map((d) => d.name)).toContain("srv__one");
    // The same tools are the same list (a gateway indexes it once), and a changed source is seen at once.
    expect(box.descriptors()).toBe(first);
    const heard = jest.fn();
    const off = box.onDescriptorsChanged?.(heard);
    caps = [probe("srv__two", async () => ({ content: [{ type: "text", text: "two" }] }) as never)];
    for (const l of listeners) l();
    expect(heard).toHaveBeenCalledTimes(1);
    expect(box.descriptors()).not.toBe(first);
    const names = box.descriptors().map((d) => d.name);
    expect(names).toContain("srv__two");
    expect(names).not.toContain("srv__one");
    expect(names).not.toContain("ls");
    expect(foldResult(await box.runner.run({ id: "1", name: "srv__two", input: {} }))).toBe("two");
    expect((await box.runner.run({ id: "2", name: "srv__one", input: {} })).isError).toBe(true);
    off?.();
    expect(listeners.size).toBe(0);
  });
});

describe("foldResult", () => {
  it("folds one text block to a string, one JSON block to its value, else tagged fragments", () => {
    expect(foldResult({ content: [{ type: "text", text: "hi" }] })).toBe("hi");
    expect(foldResult({ content: [{ type: "json", value: { a: 1 } }] })).toEqual({ a: 1 });
    expect(foldResult({ content: [] })).toEqual([]);
    expect(
      foldResult({
        content: [
          { type: "text", text: "a" },
          { type: "json", value: [1] },
        ],
      }),
    ).toEqual([
      { type: "text", text: "a" },
      { type: "json", value: [1] },
    ]);
  });
});
