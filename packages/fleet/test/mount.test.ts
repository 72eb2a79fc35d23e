import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { TOOL_NAME_PATTERN, type ToolOutcome } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { mountProtocolBridge, type MountedProtocolBridge } from "@indus/fleet";
import { fixture, scripted } from "@indus/testkit";
import { waitFor } from "@indus/testkit";

jest.setTimeout(60_000);

describe("a mounted fleet of scripted servers", () => {
  let mounted: MountedProtocolBridge;
  beforeAll(async () => {
    mounted = await mountProtocolBridge({
      servers: [
        scripted("a", [], {
          includeTools: ["echo", "rich", "error_result", "throws", "grow", "shrink", "dotted*", "slow", "grown_*"],
        }),
        scripted("b", [], { includeTools: ["e*", "w*"], excludeTools: ["error_*"] }),
        fixture("dead", "exit-at-once.mjs"),
      ],
    });
  });
  afterAll(() => mounted.fleet.tearDown());

  const run = (name: string, input: unknown = {}): Promise<ToolOutcome> =>
    mounted.box.runner.run({ id: `call-${name}`, name, input });

  it("offers the qualified, normalized tools of ready servers after include/exclude (exclude wins)", () => {
    const names = mounted.box.descriptors().map((descriptor) => descriptor.name);
    expect(names.filter((name) => name.startsWith("b__"))).toEqual(["b__echo", "b__whoami"]);
    expect(names.filter((name) => name.startsWith("a__"))).toEqual(
      expect.arrayContaining(["a__echo", "a__rich", "a__dotted_name", "a__grow"]),
    );
    expect(names.some((name) => name.startsWith("a__dotted_name_"))).toBe(true);
    expect(names.some((name) => name.startsWith("dead__"))).toBe(false);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(mounted.box.descriptors()[0]!.parameters).toMatchObject({ type: "object" });
    expect(mounted.fleet.status().get("dead")?.fault?.kind).toBe("spawn-failed");
  });

  it("routes a qualified name back to its server under the server-side name", async () => {
    await expect(run("b__echo", { message: "hi" })).resolves.toEqual({
      callId: "call-b__echo",
      content: [{ type: "text", text: "Echo from b: hi" }],
      isError: false,
      // The result as the server sent it, for a gateway to return unchanged.
      wire: { content: [{ type: "text", text: "Echo from b: hi" }] },
    });
    const dotted = mounted.box.descriptors().find((d) => d.name.startsWith("a__dotted_name_"))!;
    expect(mounted.box.resolve(dotted.name)?.ref).toEqual({ server: "a", name: "dotted.name" });
  });

  it("keeps text as text and carries everything else as JSON blocks", async () => {
    const outcome = await run("a__rich");
    expect(outcome.content[0]).toEqual({ type: "text", text: "plain" });
    expect(outcome.content.slice(1).map((block) => block.type)).toEqual(["json", "json", "json", "json"]);
    expect(outcome.content[1]).toEqual({
      type: "json",
      value: { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    });
    expect(outcome.structuredContent).toEqual({ ok: true });
  });

  it("turns isError, faults and unknown tools into isError outcomes, never rejections", async () => {
    await expect(run("a__error_result")).resolves.toMatchObject({
      isError: true,
      content: [{ type: "text", text: "the tool failed" }],
    });
    const thrown = await run("a__throws");
    expect(thrown.isError).toBe(true);
    expect((thrown.content[0] as { text: string }).text).toMatch(/^\[tool-error\]/);
    await expect(run("nope__nothing")).resolves.toMatchObject({ isError: true, callId: "call-nope__nothing" });
  });

  it("passes progress and abort through the runner", async () => {
    const seen: number[] = [];
    const controller = new AbortController();
    // The caller cancels at the second report, whenever it comes.
    const outcome = await mounted.box.runner.run(
      { id: "slow", name: "a__slow", input: { ms: 20_000, every: 200 } },
      {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p.progress);
          if (seen.length === 2) controller.abort();
        },
      },
    );
    expect(outcome.isError).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
  });

  it("follows a server's tool-list changes", async () => {
    let notified = 0;
    const off = mounted.box.onDescriptorsChanged(() => (notified += 1));
    await run("a__grow");
    await waitFor("a__grown_1 mounted", () => mounted.box.descriptors().some((d) => d.name === "a__grown_1"));
    expect(notified).toBeGreaterThanOrEqual(1);
    await expect(run("a__grown_1")).resolves.toMatchObject({ isError: false });
    await run("a__shrink");
    await waitFor("a__grown_1 gone", () => !mounted.box.descriptors().some((d) => d.name === "a__grown_1"));
    off();
  });
});

it("never throws, even when no server comes up", async () => {
  const mounted = await mountProtocolBridge({
    servers: [fixture("x", "exit-at-once.mjs"), { transport: "stdio", id: "y", command: "", args: [], env: {} }],
  });
  expect(mounted.box.descriptors()).toEqual([]);
  expect([...mounted.fleet.status().values()].map((status) => status.phase)).toEqual(["faulted", "faulted"]);
  await mounted.fleet.tearDown();
});

it("keeps names distinct across servers whose qualified names meet", async () => {
  const servers = new Map<string, McpServer>();
  const make = (id: string, tool: string) => {
    const server = new McpServer({ name: id, version: "0" });
    server.registerTool(tool, { description: `${tool} on ${id}` }, () => ({
      content: [{ type: "text", text: `${id}/${tool}` }],
    }));
    servers.set(id, server);
  };
  make("a", "b__c");
  make("a__b", "c");
  const mounted = await mountProtocolBridge(
    { servers: [scripted("a"), scripted("a__b")] },
    {
      createEndpoint: (config, options) => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        void servers.get(config.id)!.connect(server);
        return createServerEndpoint(config, client, options);
      },
    },
  );
  try {
    const names = mounted.box.descriptors().map((descriptor) => descriptor.name);
    expect(names[0]).toBe("a__b__c");
    expect(names[1]).toMatch(/^a__b__c_[0-9a-f]{8}$/);
    const outcomes = await Promise.all(names.map((name) => mounted.box.runner.run({ id: name, name, input: {} })));
    expect(outcomes.map((outcome) => outcome.content[0])).toEqual([
      { type: "text", text: "a/b__c" },
      { type: "text", text: "a__b/c" },
    ]);
  } finally {
    await mounted.fleet.tearDown();
  }
});

it("follows the fleet when spinUp() replaces its endpoints", async () => {
  const mounted = await mountProtocolBridge({ servers: [scripted("again", [], { includeTools: ["echo"] })] });
  try {
    const before = mounted.fleet.endpoint("again")!;
    await mounted.fleet.spinUp();
    await mounted.box.settled();
    expect(mounted.fleet.endpoint("again")).not.toBe(before);
    expect(mounted.box.descriptors().map((d) => d.name)).toEqual(["again__echo"]);
    await expect(
      mounted.box.runner.run({ id: "1", name: "again__echo", input: { message: "new" } }),
    ).resolves.toMatchObject({
      isError: false,
    });
  } finally {
    await mounted.fleet.tearDown();
  }
});
